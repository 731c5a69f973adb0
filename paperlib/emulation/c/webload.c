/*
 * webload: paper 001's emulated browsers and web responders on real sockets.
 *
 * The real-stack twin of the C++ browsers of paperlib/sim/web_browsers_cpp.py: it executes the
 * workload arrays of paperlib.models.web_traffic.sample_browsers (written by
 * paperlib.emulation.web_load.write_workload) with the same browser behaviour (paper 001,
 * Sec. 2.1: HTTP/1.0 as Christiansen et al.'s browser program spoke it).
 *
 *   webload serve  --listen IP:PORT[,IP:PORT...] [--chunk BYTES]
 *   webload browse --workload FILE --out FILE --duration S --parallel N
 *                  --pairs CLIENT_IP:SERVER_IP:PORT[,...] [--warmup S] [--rx-log FILE,INTERVAL]
 *
 * Wire protocol: one TCP connection per request. The request starts with the ASCII header
 * "GET /<reply_bytes> <req_bytes>\n" and is padded with 'x' to req_bytes; a request shorter than
 * its header is sent as the header alone (counted as "short_requests"). The responder reads the
 * whole request (max(req_bytes, header length) bytes), sends reply_bytes bytes and closes.
 *
 * Browser (as web_browsers_cpp's StartPage / ObjectDone): at its start time, and after each page
 * at (completion of the page's last object + the page's think time), a browser opens one
 * connection for the page's primary object; when it completes (or fails) it opens the embedded
 * objects in order over at most --parallel concurrent connections, opening the next one whenever
 * one completes or fails; after the last object of a page completes, it thinks, then starts its
 * next page; a browser with no pages left stops. A request's response time runs from connect()
 * to the read that returns the last byte of its reply. A failed connection (refused, reset,
 * timed out, closed early, no address/port) counts as a failed object and the browser goes on,
 * as ns-3's error and close callbacks do. At --duration everything stops: open requests are
 * "unfinished", and a page whose start time had passed but which was not yet issued (the
 * generator lagging) is written as "unissued"; later pages are not written.
 *
 * Times: CLOCK_MONOTONIC seconds relative to time 0, the moment the event loop starts (its
 * absolute value is printed as t0_monotonic_s). Output file (CSV, written atomically): a
 * "# webload requests v1 ..." comment line, a header line, then one row per request in the order
 * of its connect() (unissued rows last): browser, page (row of the workload's page arrays), object
 * (row of the object arrays), primary (0/1), t_sched_s (when the browser became ready to issue it:
 * its start or think end for a primary, the completion of the object that freed a connection for an
 * embedded object), t_start_s (connect()), t_done_s (last reply byte, or the failure; empty if
 * unfinished), reply_bytes, status (done, failed, unfinished, unissued).
 *
 * Browse prints "start T0" (t0_monotonic_s) on stdout the moment its event loop starts, and flushes it.
 * Both modes print one JSON line of counters on exit (browse: at --duration, or earlier on SIGTERM
 * or SIGINT with the same outputs; serve: on SIGTERM or SIGINT) with their own CPU time (getrusage).
 * Exit codes: 0 ok, 1 run-time error, 2 usage or malformed workload.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "webload reads the little-endian workload file directly: build it on a little-endian host"
#endif

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define MAX_HEADER 32  /* "GET /" + 10 digits + " " + 10 digits + "\n" = 27 */
#define IOBUF (256 * 1024)
#define MAX_EVENTS 1024
#define MAX_ADDRS 64
#define WORKLOAD_MAGIC "WEBLOAD\0"
#define WORKLOAD_VERSION 1u

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("webload: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(code);
}

static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cpu_s(double *user, double *sys) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
  *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* Raise the soft open-file limit to the hard one; return the limit in force. */
static int raise_nofile(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  return rl.rlim_cur > 1u << 24 ? 1 << 24 : (int)rl.rlim_cur;
}

/* Wait for events until the absolute time deadline (CLOCK_MONOTONIC s): epoll_pwait2's nanosecond
 * timeout, or epoll_wait's milliseconds (rounded up) where the kernel lacks epoll_pwait2. */
static int wait_until(int ep, struct epoll_event *ev, int max, double deadline) {
  static int have_pwait2 = 1;
  double left = deadline - mono_s();
  if (left < 0) left = 0;
  if (have_pwait2) {
    struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    int n = epoll_pwait2(ep, ev, max, &ts, NULL);
    if (n >= 0 || errno != ENOSYS) return n;
    have_pwait2 = 0;
  }
  return epoll_wait(ep, ev, max, (int)ceil(left * 1e3));
}

static int parse_addr(const char *s, struct sockaddr_in *a) {
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  return inet_pton(AF_INET, s, &a->sin_addr) == 1 ? 0 : -1;
}

static int parse_port(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  return (*s && !*end && v > 0 && v < 65536) ? (int)v : -1;
}

static void set_nodelay(int fd) {
  int one = 1;  /* ns-3's TcpSocket TcpNoDelay is true by default: no Nagle delay on the last segment */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static int epoll_set(int ep, int op, int fd, uint32_t events) {
  struct epoll_event e = {.events = events, .data.fd = fd};
  return epoll_ctl(ep, op, fd, &e);
}

/* The request header; returns its length. */
static int header(char *buf, uint32_t reply, uint32_t req) {
  return snprintf(buf, MAX_HEADER, "GET /%u %u\n", reply, req);
}

/* ============================== serve ============================== */

enum { S_FREE = 0, S_READ, S_WRITE };
typedef struct {
  uint8_t state;
  uint8_t hlen;
  char hdr[MAX_HEADER];
  uint32_t need, got;
  uint64_t left;
} SConn;

static int is_listener(const int *ls, int n, int fd) {
  for (int i = 0; i < n; ++i)
    if (ls[i] == fd) return 1;
  return 0;
}

static int serve(int argc, char **argv) {
  char *listen_arg = NULL;
  long chunk = 65536;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--listen") && i + 1 < argc) listen_arg = argv[++i];
    else if (!strcmp(argv[i], "--chunk") && i + 1 < argc) chunk = strtol(argv[++i], NULL, 10);
    else die(EXIT_USAGE, "serve: unknown argument %s", argv[i]);
  }
  if (!listen_arg) die(EXIT_USAGE, "serve: --listen IP:PORT[,IP:PORT...] is required");
  if (chunk <= 0 || chunk > 16 << 20) die(EXIT_USAGE, "serve: --chunk must be in 1..16777216 bytes");
  int maxfd = raise_nofile();
  signal(SIGPIPE, SIG_IGN);
  SConn *conns = calloc((size_t)maxfd, sizeof *conns);
  char *zeros = calloc(1, (size_t)chunk);
  char *rbuf = malloc(IOBUF);
  if (!conns || !zeros || !rbuf) die(EXIT_RUNTIME, "serve: out of memory");
  int ep = epoll_create1(EPOLL_CLOEXEC);
  int ls[MAX_ADDRS], nls = 0;
  for (char *tok = strtok(listen_arg, ","); tok; tok = strtok(NULL, ",")) {
    char *colon = strrchr(tok, ':');
    struct sockaddr_in a;
    if (!colon) die(EXIT_USAGE, "serve: --listen entry %s is not IP:PORT", tok);
    *colon = 0;
    int port = parse_port(colon + 1);
    if (parse_addr(tok, &a) || port < 0) die(EXIT_USAGE, "serve: --listen entry %s:%s is not IP:PORT", tok, colon + 1);
    if (nls == MAX_ADDRS) die(EXIT_USAGE, "serve: at most %d listen addresses", MAX_ADDRS);
    a.sin_port = htons((uint16_t)port);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    set_nodelay(fd);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 4096))
      die(EXIT_RUNTIME, "serve: cannot listen on %s:%d: %s", tok, port, strerror(errno));
    epoll_set(ep, EPOLL_CTL_ADD, fd, EPOLLIN);
    ls[nls++] = fd;
  }
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  epoll_set(ep, EPOLL_CTL_ADD, sfd, EPOLLIN);
  printf("ready\n");
  fflush(stdout);

  uint64_t n_conn = 0, n_replies = 0, n_errors = 0, n_short = 0, bytes_sent = 0, bytes_read = 0;
  uint64_t open = 0, max_open = 0;
  struct epoll_event ev[MAX_EVENTS];
  int stop = 0;
  while (!stop) {
    int n = epoll_wait(ep, ev, MAX_EVENTS, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      die(EXIT_RUNTIME, "serve: epoll_wait: %s", strerror(errno));
    }
    for (int k = 0; k < n; ++k) {
      int fd = ev[k].data.fd;
      if (fd == sfd) { stop = 1; continue; }
      if (is_listener(ls, nls, fd)) {
        for (;;) {
          int c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
          if (c < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) n_errors++;
            if (errno == EINTR || errno == ECONNABORTED) continue;
            break;
          }
          if (c >= maxfd) { close(c); n_errors++; continue; }
          set_nodelay(c);
          memset(&conns[c], 0, sizeof conns[c]);
          conns[c].state = S_READ;
          n_conn++;
          if (++open > max_open) max_open = open;
          epoll_set(ep, EPOLL_CTL_ADD, c, EPOLLIN);
        }
        continue;
      }
      SConn *s = &conns[fd];
      int bad = 0, finished = 0;
      if (s->state == S_READ) {
        for (;;) {  /* read the whole request: header first, then the padding up to its length */
          ssize_t r = read(fd, rbuf, IOBUF);
          if (r < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (errno == EINTR) continue;
            bad = 1;
            break;
          }
          if (r == 0) { bad = 1; break; }  /* the browser left before its request was complete */
          bytes_read += (uint64_t)r;
          ssize_t off = 0;
          if (s->need == 0) {  /* still in the header */
            while (off < r && s->hlen < MAX_HEADER - 1) {
              char ch = rbuf[off++];
              s->hdr[s->hlen++] = ch;
              if (ch == '\n') break;
            }
            if (s->hdr[s->hlen - 1] != '\n') {
              if (s->hlen >= MAX_HEADER - 1) { bad = 1; break; }
              continue;
            }
            s->hdr[s->hlen] = 0;
            unsigned long reply, req;
            char tail;
            if (sscanf(s->hdr, "GET /%lu %lu%c", &reply, &req, &tail) != 3 || tail != '\n' || reply == 0 ||
                reply > UINT32_MAX || req == 0 || req > UINT32_MAX) { bad = 1; break; }
            s->need = req > s->hlen ? (uint32_t)req : s->hlen;
            if (req < s->hlen) n_short++;
            s->left = reply;
            s->got = s->hlen;
          }
          s->got += (uint32_t)(r - off);
          if (s->got > s->need) { bad = 1; break; }  /* more than the request announced */
          if (s->got == s->need) { s->state = S_WRITE; break; }
        }
      }
      if (!bad && s->state == S_WRITE) {
        while (s->left > 0) {
          size_t len = s->left < (uint64_t)chunk ? (size_t)s->left : (size_t)chunk;
          ssize_t w = send(fd, zeros, len, MSG_NOSIGNAL);
          if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (errno == EINTR) continue;
            bad = 1;
            break;
          }
          s->left -= (uint64_t)w;
          bytes_sent += (uint64_t)w;
        }
        if (!bad && s->left == 0) finished = 1;
        else if (!bad && !(ev[k].events & EPOLLOUT)) epoll_set(ep, EPOLL_CTL_MOD, fd, EPOLLOUT);
      }
      if (bad || finished) {  /* the responder closes, as in ns-3 (ServerSend closes after the last byte) */
        if (bad) n_errors++;
        else n_replies++;
        s->state = S_FREE;
        open--;
        close(fd);
      }
    }
  }
  double cu, cs;
  cpu_s(&cu, &cs);
  printf("{\"mode\": \"serve\", \"connections\": %llu, \"replies\": %llu, \"bytes_sent\": %llu, "
         "\"bytes_read\": %llu, \"short_requests\": %llu, \"errors\": %llu, \"open_at_end\": %llu, "
         "\"max_open\": %llu, \"cpu_s\": %.6f, \"cpu_user_s\": %.6f, \"cpu_sys_s\": %.6f}\n",
         (unsigned long long)n_conn, (unsigned long long)n_replies, (unsigned long long)bytes_sent,
         (unsigned long long)bytes_read, (unsigned long long)n_short, (unsigned long long)n_errors,
         (unsigned long long)open, (unsigned long long)max_open, cu + cs, cu, cs);
  fflush(stdout);
  return 0;
}

/* ============================== browse ============================== */

/* The workload (web_load.write_workload): 8-byte magic, u32 version, u32 reserved, u64 counts of
 * browsers, pages and objects, then the arrays in this order, little-endian. */
static uint64_t nb, np_, no;
static int32_t *b_group;
static double *b_start;
static uint32_t *b_first, *b_pages, *p_first, *p_objects, *o_req, *o_reply;
static double *p_think;

static void *read_array(FILE *f, const char *path, const char *name, uint64_t n, size_t size) {
  void *a = malloc(n ? n * size : 1);
  if (!a) die(EXIT_RUNTIME, "out of memory for %s", name);
  if (n && fread(a, size, n, f) != n) die(EXIT_USAGE, "workload %s: truncated in array %s", path, name);
  return a;
}

static void load_workload(const char *path, int n_pairs) {
  FILE *f = fopen(path, "rb");
  if (!f) die(EXIT_USAGE, "workload %s: %s", path, strerror(errno));
  char magic[8];
  uint32_t ver[2];
  uint64_t counts[3];
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, WORKLOAD_MAGIC, 8))
    die(EXIT_USAGE, "workload %s: not a webload workload file (bad magic)", path);
  if (fread(ver, 4, 2, f) != 2 || ver[0] != WORKLOAD_VERSION)
    die(EXIT_USAGE, "workload %s: version %u, this program reads version %u", path, ver[0], WORKLOAD_VERSION);
  if (fread(counts, 8, 3, f) != 3) die(EXIT_USAGE, "workload %s: truncated header", path);
  nb = counts[0], np_ = counts[1], no = counts[2];
  if (nb > 1u << 28 || np_ > 1u << 30 || no > 1u << 30) die(EXIT_USAGE, "workload %s: implausible counts", path);
  b_group = read_array(f, path, "browser_group", nb, 4);
  b_start = read_array(f, path, "browser_start_s", nb, 8);
  b_first = read_array(f, path, "browser_first_page", nb, 4);
  b_pages = read_array(f, path, "browser_pages", nb, 4);
  p_first = read_array(f, path, "page_first", np_, 4);
  p_objects = read_array(f, path, "page_objects", np_, 4);
  p_think = read_array(f, path, "page_think_s", np_, 8);
  o_req = read_array(f, path, "req_bytes", no, 4);
  o_reply = read_array(f, path, "reply_bytes", no, 4);
  if (fgetc(f) != EOF) die(EXIT_USAGE, "workload %s: bytes after the last array", path);
  fclose(f);
  for (uint64_t i = 0; i < nb; ++i) {
    if (b_group[i] < 0 || b_group[i] >= n_pairs)
      die(EXIT_USAGE, "workload %s: browser_group[%llu] = %d, but --pairs has %d pairs", path,
          (unsigned long long)i, b_group[i], n_pairs);
    if (!(b_start[i] >= 0 && isfinite(b_start[i])))
      die(EXIT_USAGE, "workload %s: browser_start_s[%llu] is not finite and >= 0", path, (unsigned long long)i);
    if ((uint64_t)b_first[i] + b_pages[i] > np_)
      die(EXIT_USAGE, "workload %s: browser_first_page[%llu] + browser_pages beyond the %llu pages", path,
          (unsigned long long)i, (unsigned long long)np_);
  }
  for (uint64_t i = 0; i < np_; ++i) {
    if (p_objects[i] == 0 || (uint64_t)p_first[i] + p_objects[i] > no)
      die(EXIT_USAGE, "workload %s: page_objects[%llu] = 0 or beyond the %llu objects", path,
          (unsigned long long)i, (unsigned long long)no);
    if (!(p_think[i] >= 0 && isfinite(p_think[i])))
      die(EXIT_USAGE, "workload %s: page_think_s[%llu] is not finite and >= 0", path, (unsigned long long)i);
  }
  for (uint64_t i = 0; i < no; ++i)
    if (o_req[i] == 0 || o_reply[i] == 0)
      die(EXIT_USAGE, "workload %s: req_bytes or reply_bytes [%llu] is 0", path, (unsigned long long)i);
}

typedef struct { uint32_t page, next_obj, done_obj; } Browser;

enum { R_NONE = 0, R_UNISSUED, R_OPEN, R_DONE, R_FAILED };
enum { C_FREE = 0, C_CONNECTING, C_SENDING, C_RECEIVING, C_DRAINING };
typedef struct {
  uint8_t state;
  uint32_t obj;  /* object being fetched */
  uint32_t sent, got;
} CConn;

static Browser *browsers;
static uint32_t *o_browser, *o_page;  /* owner of every object (filled while loading pages) */
static double *r_sched, *r_start, *r_done;
static uint8_t *r_status;
static uint32_t *issue_order;
static uint64_t n_issued;
static CConn *cconns;
static int maxfd, ep, parallel = 4, n_pairs;
static struct sockaddr_in pair_client[MAX_ADDRS], pair_server[MAX_ADDRS];
static double t0;
static uint64_t rx_bytes, stray_bytes, n_failed, n_done, n_short, open_now, max_open, fds_now, max_fds;
static uint64_t e_addrnotavail, e_refused, e_timedout, e_reset, e_early_close, e_nofile, e_other;
static char padding[IOBUF];

static double now_rel(void) { return mono_s() - t0; }

/* Min-heap of browsers' next page starts (think ends), earliest first; ties by browser id. */
typedef struct { double t; uint32_t b; } Timer;
static Timer *heap;
static uint64_t heap_n;
static int timer_less(Timer a, Timer b) { return a.t < b.t || (a.t == b.t && a.b < b.b); }
static void heap_push(double t, uint32_t b) {
  uint64_t i = heap_n++;
  heap[i] = (Timer){t, b};
  while (i > 0 && timer_less(heap[i], heap[(i - 1) / 2])) {
    Timer x = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = x;
    i = (i - 1) / 2;
  }
}
static Timer heap_pop(void) {
  Timer top = heap[0];
  heap[0] = heap[--heap_n];
  for (uint64_t i = 0;;) {
    uint64_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < heap_n && timer_less(heap[l], heap[m])) m = l;
    if (r < heap_n && timer_less(heap[r], heap[m])) m = r;
    if (m == i) break;
    Timer x = heap[i]; heap[i] = heap[m]; heap[m] = x;
    i = m;
  }
  return top;
}

/* Failures found while opening (no port, no file descriptor): handled after the opening loop, as
 * ns-3 reports a failed connection through a later callback. */
typedef struct { uint32_t b; double t; } Deferred;
static Deferred *deferred;
static uint64_t n_deferred;

static void object_done(uint32_t b, double t);

static void fail(uint32_t obj, double t, int err) {
  switch (err) {
    case EADDRNOTAVAIL: e_addrnotavail++; break;
    case ECONNREFUSED: e_refused++; break;
    case ETIMEDOUT: e_timedout++; break;
    case ECONNRESET: e_reset++; break;
    case 0: e_early_close++; break;
    case EMFILE: case ENFILE: e_nofile++; break;
    default: e_other++;
  }
  r_status[obj] = R_FAILED;
  r_done[obj] = t;
  n_failed++;
}

static void close_conn(int fd) {
  if (cconns[fd].state != C_DRAINING) open_now--;
  cconns[fd].state = C_FREE;
  close(fd);
  fds_now--;
}

/* web_browsers_cpp OpenConn: a new connection for object obj, ready since t_sched. */
static void open_conn(uint32_t b, uint32_t obj, double t_sched) {
  r_sched[obj] = t_sched;
  r_status[obj] = R_OPEN;
  issue_order[n_issued++] = obj;
  char hdr[MAX_HEADER];
  if ((uint32_t)header(hdr, o_reply[obj], o_req[obj]) > o_req[obj]) n_short++;
  const struct sockaddr_in *cl = &pair_client[b_group[b]], *sv = &pair_server[b_group[b]];
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int err = 0;
  if (fd < 0) err = errno;
  else if (fd >= maxfd) { close(fd); fd = -1; err = EMFILE; }
  if (!err) {
    int one = 1;  /* the port is chosen at connect() for the whole 4-tuple, not per client address */
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    set_nodelay(fd);
    if (bind(fd, (const struct sockaddr *)cl, sizeof *cl)) err = errno;
  }
  r_start[obj] = now_rel();
  if (!err && connect(fd, (const struct sockaddr *)sv, sizeof *sv) && errno != EINPROGRESS) err = errno;
  if (err) {
    if (fd >= 0) close(fd);
    fail(obj, now_rel(), err);
    deferred[n_deferred++] = (Deferred){b, r_done[obj]};
    return;
  }
  cconns[fd] = (CConn){C_CONNECTING, obj, 0, 0};
  epoll_set(ep, EPOLL_CTL_ADD, fd, EPOLLOUT);
  fds_now++;
  if (fds_now > max_fds) max_fds = fds_now;
  if (++open_now > max_open) max_open = open_now;
}

/* web_browsers_cpp StartPage: the browser's next page begins with its primary object. */
static void start_page(uint32_t b, double t_sched) {
  Browser *br = &browsers[b];
  if (br->page >= b_pages[b]) return;
  uint32_t p = b_first[b] + br->page;
  br->next_obj = 1;
  br->done_obj = 0;
  open_conn(b, p_first[p], t_sched);
}

/* web_browsers_cpp ObjectDone: one object of the browser's page completed or failed at time t. */
static void object_done(uint32_t b, double t) {
  Browser *br = &browsers[b];
  uint32_t p = b_first[b] + br->page;
  br->done_obj++;
  if (br->done_obj == p_objects[p]) {
    br->page++;
    if (br->page < b_pages[b]) heap_push(t + p_think[p], b);  /* think, then the next page */
    return;
  }
  uint32_t open = br->next_obj - br->done_obj;  /* connections of this page still open */
  while (br->next_obj < p_objects[p] && open < (uint32_t)parallel) {
    uint32_t obj = p_first[p] + br->next_obj;
    br->next_obj++;
    open++;
    open_conn(b, obj, t);
  }
}

static void run_deferred(void) {
  for (uint64_t i = 0; i < n_deferred; ++i) object_done(deferred[i].b, deferred[i].t);  /* may append */
  n_deferred = 0;
}

/* Send what is left of the request; return 1 when all of it is sent, 0 to wait, -1 (errno) on error. */
static int send_request(int fd, CConn *c) {
  char hdr[MAX_HEADER];
  uint32_t hlen = (uint32_t)header(hdr, o_reply[c->obj], o_req[c->obj]);
  uint32_t total = o_req[c->obj] > hlen ? o_req[c->obj] : hlen;
  while (c->sent < total) {
    struct iovec iov[2];
    int k = 0;
    if (c->sent < hlen) iov[k++] = (struct iovec){hdr + c->sent, hlen - c->sent};
    uint32_t pad_from = c->sent > hlen ? c->sent : hlen;
    uint32_t pad = total - pad_from;
    if (pad > 0) iov[k++] = (struct iovec){padding, pad < IOBUF ? pad : IOBUF};
    struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)k};
    ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      if (errno == EINTR) continue;
      return -1;
    }
    c->sent += (uint32_t)w;
  }
  return 1;
}

static char rbuf[IOBUF];

static void on_client_event(int fd, uint32_t events) {
  CConn *c = &cconns[fd];
  uint32_t obj = c->obj, b = o_browser[obj];
  if (c->state == C_CONNECTING) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
      if (!err) err = errno;
      double t = now_rel();
      fail(obj, t, err);
      close_conn(fd);
      object_done(b, t);
      return;
    }
    c->state = C_SENDING;
  }
  if (c->state == C_SENDING) {
    int s = send_request(fd, c);
    if (s < 0) {
      int err = errno;
      double t = now_rel();
      fail(obj, t, err);
      close_conn(fd);
      object_done(b, t);
      return;
    }
    if (s == 0) return;
    c->state = C_RECEIVING;
    epoll_set(ep, EPOLL_CTL_MOD, fd, EPOLLIN);
    if (!(events & EPOLLIN)) return;
  }
  for (;;) {  /* C_RECEIVING or C_DRAINING */
    ssize_t r = read(fd, rbuf, IOBUF);
    if (r < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      if (errno == EINTR) continue;
      int err = errno;
      if (c->state == C_RECEIVING) {
        double t = now_rel();
        fail(obj, t, err);
        close_conn(fd);
        object_done(b, t);
      } else {
        close_conn(fd);
      }
      return;
    }
    if (r == 0) {  /* the responder closed */
      if (c->state == C_RECEIVING) {  /* before the whole reply: ns-3's close callback, a failure */
        double t = now_rel();
        fail(obj, t, 0);
        close_conn(fd);
        object_done(b, t);
      } else {
        close_conn(fd);
      }
      return;
    }
    rx_bytes += (uint64_t)r;
    if (c->state == C_DRAINING) { stray_bytes += (uint64_t)r; continue; }
    uint64_t got = (uint64_t)c->got + (uint64_t)r;
    if (got >= o_reply[obj]) {  /* last byte of the reply: web_browsers_cpp ClientRecv */
      stray_bytes += got - o_reply[obj];
      c->got = o_reply[obj];
      double t = now_rel();
      r_done[obj] = t;
      r_status[obj] = R_DONE;
      n_done++;
      c->state = C_DRAINING;  /* wait for the responder's FIN, so the responder holds TIME_WAIT */
      open_now--;
      object_done(b, t);
    } else {
      c->got = (uint32_t)got;
    }
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void write_requests(const char *path, double duration, double t0_abs) {
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 16);
  snprintf(tmp, plen + 16, "%s.tmp%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) die(EXIT_RUNTIME, "cannot write %s: %s", tmp, strerror(errno));
  static const char *status[] = {"", "unissued", "unfinished", "done", "failed"};
  fprintf(f, "# webload requests v1 t0_monotonic_s=%.9f duration_s=%.9f parallel=%d\n", t0_abs, duration, parallel);
  fprintf(f, "browser,page,object,primary,t_sched_s,t_start_s,t_done_s,reply_bytes,status\n");
  for (uint64_t i = 0; i < n_issued; ++i) {
    uint32_t o = issue_order[i];
    uint32_t p = o_page[o];
    char start[32] = "", done[32] = "";
    if (r_status[o] != R_UNISSUED) snprintf(start, sizeof start, "%.9f", r_start[o]);
    if (r_status[o] == R_DONE || r_status[o] == R_FAILED) snprintf(done, sizeof done, "%.9f", r_done[o]);
    fprintf(f, "%u,%u,%u,%d,%.9f,%s,%s,%u,%s\n", o_browser[o], p, o, p_first[p] == o, r_sched[o], start, done,
            o_reply[o], status[r_status[o]]);
  }
  if (fflush(f) || fsync(fileno(f)) || fclose(f)) die(EXIT_RUNTIME, "cannot write %s: %s", tmp, strerror(errno));
  if (rename(tmp, path)) die(EXIT_RUNTIME, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
  free(tmp);
}

static int browse(int argc, char **argv) {
  const char *wl = NULL, *out = NULL;
  char *pairs_arg = NULL, *rxlog_arg = NULL;
  double duration = -1, warmup = 0;
  for (int i = 2; i < argc; ++i) {
    if (i + 1 >= argc) die(EXIT_USAGE, "browse: %s needs a value", argv[i]);
    if (!strcmp(argv[i], "--workload")) wl = argv[++i];
    else if (!strcmp(argv[i], "--out")) out = argv[++i];
    else if (!strcmp(argv[i], "--duration")) duration = strtod(argv[++i], NULL);
    else if (!strcmp(argv[i], "--parallel")) parallel = (int)strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--pairs")) pairs_arg = argv[++i];
    else if (!strcmp(argv[i], "--warmup")) warmup = strtod(argv[++i], NULL);
    else if (!strcmp(argv[i], "--rx-log")) rxlog_arg = argv[++i];
    else die(EXIT_USAGE, "browse: unknown argument %s", argv[i]);
  }
  if (!wl || !out || !pairs_arg) die(EXIT_USAGE, "browse: --workload, --out and --pairs are required");
  if (!(duration > 0 && isfinite(duration))) die(EXIT_USAGE, "browse: --duration must be > 0 seconds");
  if (parallel < 1) die(EXIT_USAGE, "browse: --parallel must be >= 1");
  if (!(warmup >= 0 && warmup < duration)) die(EXIT_USAGE, "browse: --warmup must be in [0, duration)");
  for (char *tok = strtok(pairs_arg, ","); tok; tok = strtok(NULL, ",")) {
    char *c1 = strchr(tok, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) die(EXIT_USAGE, "browse: --pairs entry %s is not CLIENT_IP:SERVER_IP:PORT", tok);
    *c1 = 0, *c2 = 0;
    int port = parse_port(c2 + 1);
    if (n_pairs == MAX_ADDRS) die(EXIT_USAGE, "browse: at most %d pairs", MAX_ADDRS);
    if (parse_addr(tok, &pair_client[n_pairs]) || parse_addr(c1 + 1, &pair_server[n_pairs]) || port < 0)
      die(EXIT_USAGE, "browse: --pairs entry %s:%s:%s is not CLIENT_IP:SERVER_IP:PORT", tok, c1 + 1, c2 + 1);
    pair_server[n_pairs].sin_port = htons((uint16_t)port);
    n_pairs++;
  }
  FILE *rxlog = NULL;
  double rx_interval = 0;
  if (rxlog_arg) {
    char *comma = strrchr(rxlog_arg, ',');
    if (!comma) die(EXIT_USAGE, "browse: --rx-log is FILE,INTERVAL");
    *comma = 0;
    rx_interval = strtod(comma + 1, NULL);
    if (!(rx_interval > 0)) die(EXIT_USAGE, "browse: --rx-log INTERVAL must be > 0 seconds");
    rxlog = fopen(rxlog_arg, "w");
    if (!rxlog) die(EXIT_RUNTIME, "cannot write %s: %s", rxlog_arg, strerror(errno));
    fprintf(rxlog, "t_s,rx_bytes\n");
  }
  load_workload(wl, n_pairs);
  maxfd = raise_nofile();
  signal(SIGPIPE, SIG_IGN);
  memset(padding, 'x', sizeof padding);
  browsers = calloc(nb ? nb : 1, sizeof *browsers);
  o_browser = malloc((no ? no : 1) * 4);
  o_page = malloc((no ? no : 1) * 4);
  r_sched = malloc((no ? no : 1) * 8);
  r_start = malloc((no ? no : 1) * 8);
  r_done = malloc((no ? no : 1) * 8);
  r_status = calloc(no ? no : 1, 1);
  issue_order = malloc((no ? no : 1) * 4);
  deferred = malloc((no ? no : 1) * sizeof *deferred);
  heap = malloc((nb ? nb : 1) * sizeof *heap);
  cconns = calloc((size_t)maxfd, sizeof *cconns);
  double *lateness = malloc((no ? no : 1) * 8);
  if (!browsers || !o_browser || !o_page || !r_sched || !r_start || !r_done || !r_status || !issue_order ||
      !deferred || !heap || !cconns || !lateness)
    die(EXIT_RUNTIME, "browse: out of memory");
  for (uint64_t b = 0; b < nb; ++b)
    for (uint32_t j = 0; j < b_pages[b]; ++j) {
      uint32_t p = b_first[b] + j;
      for (uint32_t k = 0; k < p_objects[p]; ++k) {
        o_browser[p_first[p] + k] = (uint32_t)b;
        o_page[p_first[p] + k] = p;
      }
    }
  ep = epoll_create1(EPOLL_CLOEXEC);
  if (ep < 0) die(EXIT_RUNTIME, "epoll_create1: %s", strerror(errno));
  sigset_t mask;  /* SIGTERM / SIGINT end the run early, with the same outputs */
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sfd < 0 || sfd >= maxfd) die(EXIT_RUNTIME, "signalfd: %s", strerror(errno));
  epoll_set(ep, EPOLL_CTL_ADD, sfd, EPOLLIN);
  int stopped = 0;
  uint64_t active = 0;
  for (uint64_t b = 0; b < nb; ++b)
    if (b_pages[b] > 0) { heap_push(b_start[b], (uint32_t)b); active++; }  /* an idle browser costs nothing */

  struct epoll_event ev[MAX_EVENTS];
  uint64_t rx_at_warmup = 0;
  int warmup_marked = warmup == 0;
  uint64_t rx_k = 0;  /* the next rx-log sample is at rx_k x interval */
  t0 = mono_s();  /* time 0 */
  printf("start %.9f\n", t0);  /* time 0 as it happens: a caller can act at a time of the run (a warm-up's end) */
  fflush(stdout);
  double now = 0;
  for (;;) {
    now = now_rel();
    if (now >= duration) break;
    while (heap_n && heap[0].t <= now) {
      Timer t = heap_pop();
      start_page(t.b, t.t);
    }
    run_deferred();
    if (!warmup_marked && now >= warmup) { rx_at_warmup = rx_bytes; warmup_marked = 1; }
    while (rxlog && (double)rx_k * rx_interval <= now) {
      fprintf(rxlog, "%.6f,%llu\n", (double)rx_k * rx_interval, (unsigned long long)rx_bytes);
      rx_k++;
    }
    double deadline = duration;
    if (heap_n && heap[0].t < deadline) deadline = heap[0].t;
    if (!warmup_marked && warmup < deadline) deadline = warmup;
    if (rxlog && (double)rx_k * rx_interval < deadline) deadline = (double)rx_k * rx_interval;
    int n = wait_until(ep, ev, MAX_EVENTS, t0 + deadline);
    if (n < 0) {
      if (errno == EINTR) continue;
      die(EXIT_RUNTIME, "epoll: %s", strerror(errno));
    }
    for (int k = 0; k < n; ++k) {
      if (ev[k].data.fd == sfd) stopped = 1;
      else on_client_event(ev[k].data.fd, ev[k].events);
    }
    run_deferred();
    if (stopped) { now = now_rel(); break; }
  }
  double t_end = now;
  if (rxlog) {  /* the last interval boundary at or before the end */
    if ((double)rx_k * rx_interval <= duration)
      fprintf(rxlog, "%.6f,%llu\n", (double)rx_k * rx_interval, (unsigned long long)rx_bytes);
    if (fclose(rxlog)) die(EXIT_RUNTIME, "cannot write the rx log: %s", strerror(errno));
  }
  /* Pages whose start had passed but which were not issued yet: scheduled, never issued. */
  uint64_t unissued = 0;
  double horizon = stopped ? t_end : duration;
  while (heap_n && heap[0].t <= horizon) {
    Timer t = heap_pop();
    uint32_t obj = p_first[b_first[t.b] + browsers[t.b].page];
    r_sched[obj] = t.t;
    r_status[obj] = R_UNISSUED;
    issue_order[n_issued++] = obj;
    unissued++;
  }
  uint64_t issued = n_issued - unissued, n_late = 0;
  for (uint64_t i = 0; i < issued; ++i) {
    uint32_t o = issue_order[i];
    lateness[n_late++] = r_start[o] - r_sched[o];
  }
  double late_max = 0, late_p99 = 0;
  if (n_late) {  /* p99 interpolated between order statistics, as numpy.quantile's default */
    qsort(lateness, n_late, sizeof *lateness, cmp_double);
    late_max = lateness[n_late - 1];
    double pos = 0.99 * (double)(n_late - 1);
    uint64_t lo = (uint64_t)pos;
    uint64_t hi = lo + 1 < n_late ? lo + 1 : lo;
    late_p99 = lateness[lo] + (pos - (double)lo) * (lateness[hi] - lateness[lo]);
  }
  uint64_t unfinished = 0;
  for (uint64_t i = 0; i < issued; ++i)
    if (r_status[issue_order[i]] == R_OPEN) unfinished++;
  double cu, cs;
  cpu_s(&cu, &cs);
  write_requests(out, duration, t0);
  for (int fd = 0; fd < maxfd; ++fd)
    if (fd != sfd && cconns[fd].state != C_FREE) close(fd);
  printf("{\"mode\": \"browse\", \"t0_monotonic_s\": %.9f, \"duration_s\": %.9f, \"t_end_s\": %.9f, "
         "\"stopped_by_signal\": %s, "
         "\"warmup_s\": %.9f, \"parallel\": %d, \"pairs\": %d, \"browsers\": %llu, \"active_browsers\": %llu, "
         "\"scheduled\": %llu, \"issued\": %llu, \"done\": %llu, \"failed\": %llu, \"unfinished\": %llu, "
         "\"unissued\": %llu, \"short_requests\": %llu, \"issue_lateness_p99_s\": %.9f, "
         "\"issue_lateness_max_s\": %.9f, \"cpu_s\": %.6f, \"cpu_user_s\": %.6f, \"cpu_sys_s\": %.6f, "
         "\"max_open\": %llu, \"max_fds\": %llu, \"rx_bytes\": %llu, \"rx_bytes_after_warmup\": %llu, "
         "\"stray_bytes\": %llu, \"errors\": {\"eaddrnotavail\": %llu, \"econnrefused\": %llu, "
         "\"etimedout\": %llu, \"econnreset\": %llu, \"early_close\": %llu, \"no_fd\": %llu, \"other\": %llu}}\n",
         t0, duration, t_end, stopped ? "true" : "false", warmup, parallel, n_pairs, (unsigned long long)nb,
         (unsigned long long)active,
         (unsigned long long)n_issued, (unsigned long long)issued, (unsigned long long)n_done,
         (unsigned long long)n_failed, (unsigned long long)unfinished, (unsigned long long)unissued,
         (unsigned long long)n_short, late_p99, late_max, cu + cs, cu, cs, (unsigned long long)max_open,
         (unsigned long long)max_fds, (unsigned long long)rx_bytes, (unsigned long long)(rx_bytes - rx_at_warmup),
         (unsigned long long)stray_bytes, (unsigned long long)e_addrnotavail, (unsigned long long)e_refused,
         (unsigned long long)e_timedout, (unsigned long long)e_reset, (unsigned long long)e_early_close,
         (unsigned long long)e_nofile, (unsigned long long)e_other);
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "serve")) return serve(argc, argv);
  if (argc >= 2 && !strcmp(argv[1], "browse")) return browse(argc, argv);
  fprintf(stderr,
          "usage: webload serve --listen IP:PORT[,IP:PORT...] [--chunk BYTES]\n"
          "       webload browse --workload FILE --out FILE --duration S --parallel N\n"
          "                      --pairs CLIENT_IP:SERVER_IP:PORT[,...] [--warmup S] [--rx-log FILE,INTERVAL]\n");
  return EXIT_USAGE;
}
