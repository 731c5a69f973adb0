/* linkemu: a user-space link emulator between two TUN devices in two network namespaces.
 *
 * Each direction (a->b, b->a) is one link: Bernoulli loss with its own seeded generator (applied to
 * every packet as it arrives), then a drop-tail queue of at most `queue` packets waiting for
 * transmission, serialisation at `rate` bits/s (IP packet length, no link-layer overhead), then a
 * constant one-way propagation `delay`. Packets leave in order. The TUN devices are created by this
 * process (not persistent): they vanish with it, so killing the process is the device teardown.
 *
 * Usage: linkemu NS_A DEV_A NS_B DEV_B RATE_AB RATE_BA DELAY_AB DELAY_BA LOSS_AB LOSS_BA QUEUE_AB QUEUE_BA SEED
 *   rates in bit/s, delays in s, losses in [0, 1), queues in packets (>= 1), seed an unsigned integer.
 * Prints "ready" on stdout once both devices exist, then on SIGTERM/SIGINT one JSON line of counters, with
 * first_in_ns / last_out_ns: the CLOCK_MONOTONIC times of the first IPv4 packet read and the last one written.
 *
 * Lateness (the emulator's own timing): for every delivered packet, the CLOCK_MONOTONIC time just before its
 * write to the TUN device minus its scheduled deliver_at, in ns (>= 0: a packet is never written early).
 * Per direction a histogram of 1 us buckets up to LATE_BUCKETS us plus an overflow count and the exact
 * maximum; the final line gives per direction and for both together "lateness":{"n","median_ns","p99_ns",
 * "max_ns","overflow"}. A quantile q is the k-th smallest lateness with k = ceil(q n) (numpy's
 * "inverted_cdf"), reported as the lower edge of its 1 us bucket: at most 999 ns below the exact value; when
 * the k-th value lies beyond the histogram (overflow), the exact maximum is reported (an upper bound).
 * Compiled with -DLINKEMU_LATENESS_TEST the program instead reads lateness values (ns, one per line) on
 * stdin and prints that object (the tests check it against numpy).
 * Timers: ppoll with a nanosecond timeout on CLOCK_MONOTONIC, timer slack 1 ns, SCHED_FIFO priority 10 when
 * permitted (so a loaded machine delays the emulator less).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAXPKT 65536
#define RING 65536 /* packets in flight per direction (queued + on the wire) */
#define LATE_BUCKETS 100000 /* 1 us lateness buckets: [0, 100 ms) */

typedef struct {
    uint32_t bucket[LATE_BUCKETS]; /* bucket[i]: lateness in [i us, i+1 us) */
    long n, overflow;              /* packets recorded; those of lateness >= LATE_BUCKETS us */
    int64_t max_ns;
} late_t;

static void late_add(late_t *h, int64_t ns) {
    if (ns < 0) ns = 0;
    int64_t b = ns / 1000;
    if (b < LATE_BUCKETS) h->bucket[b]++; else h->overflow++;
    h->n++;
    if (ns > h->max_ns) h->max_ns = ns;
}

static void late_merge(late_t *into, const late_t *from) {
    for (long i = 0; i < LATE_BUCKETS; i++) into->bucket[i] += from->bucket[i];
    into->n += from->n;
    into->overflow += from->overflow;
    if (from->max_ns > into->max_ns) into->max_ns = from->max_ns;
}

/* the k-th smallest lateness (k = ceil(num/den n), at least 1), as its bucket's lower edge in ns */
static int64_t late_quantile(const late_t *h, long num, long den) {
    if (h->n == 0) return 0;
    long k = (h->n * num + den - 1) / den;
    if (k < 1) k = 1;
    long seen = 0;
    for (long i = 0; i < LATE_BUCKETS; i++) {
        seen += h->bucket[i];
        if (seen >= k) return (int64_t)i * 1000;
    }
    return h->max_ns; /* in the overflow: the exact maximum bounds it from above */
}

static void print_late(const late_t *h) {
    printf("\"lateness\":{\"n\":%ld,\"median_ns\":%lld,\"p99_ns\":%lld,\"max_ns\":%lld,\"overflow\":%ld}",
           h->n, (long long)late_quantile(h, 1, 2), (long long)late_quantile(h, 99, 100), (long long)h->max_ns,
           h->overflow);
}

typedef struct {
    int64_t tx_end;     /* ns: last bit serialised */
    int64_t deliver_at; /* ns: tx_end + delay */
    int len;
    unsigned char *data;
} pkt_t;

typedef struct {
    int in_fd, out_fd;
    double rate, delay, loss;
    long queue;
    uint64_t rng;
    int64_t busy_until;
    pkt_t ring[RING];
    long head, tail; /* ring[head..tail) in flight */
    long n_in, n_loss, n_qdrop, n_out;
    long long bytes_in, bytes_out;
    long max_backlog;
    late_t late;
} dir_t;

/* The run's transfer on the link: the CLOCK_MONOTONIC time (ns) of the first IPv4 packet read from a device and of
   the last IPv4 packet written to one (-1: none). Packets of other versions (a kernel's IPv6 chatter on a device
   that comes up) do not count: the run's applications speak IPv4 only. */
static int64_t first_in_ns = -1, last_out_ns = -1;

static volatile sig_atomic_t stop = 0;
static void on_signal(int sig) { (void)sig; stop = 1; }

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double uniform(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static void die(const char *what) { fprintf(stderr, "linkemu: %s: %s\n", what, strerror(errno)); exit(2); }

static int open_tun(const char *ns, const char *dev) {
    char path[256];
    snprintf(path, sizeof path, "/var/run/netns/%s", ns);
    int nsfd = open(path, O_RDONLY | O_CLOEXEC);
    if (nsfd < 0) die(path);
    if (setns(nsfd, CLONE_NEWNET) < 0) die("setns");
    close(nsfd);
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("/dev/net/tun");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    if (strlen(dev) >= IFNAMSIZ) { fprintf(stderr, "linkemu: device name too long: %s\n", dev); exit(2); }
    strcpy(ifr.ifr_name, dev);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) die("TUNSETIFF");
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

static long backlog(dir_t *d, int64_t t) { /* packets not yet fully serialised */
    long n = 0;
    for (long i = d->tail - 1; i >= d->head && d->ring[i % RING].tx_end > t; i--) n++;
    return n;
}

static void arrive(dir_t *d, unsigned char *buf, int len, int64_t t) {
    if (first_in_ns < 0 && len > 0 && (buf[0] >> 4) == 4) first_in_ns = t;
    d->n_in++;
    d->bytes_in += len;
    if (d->loss > 0 && uniform(&d->rng) < d->loss) { d->n_loss++; return; }
    long q = backlog(d, t);
    if (q >= d->queue || d->tail - d->head >= RING) { d->n_qdrop++; return; }
    if (q + 1 > d->max_backlog) d->max_backlog = q + 1;
    int64_t start = d->busy_until > t ? d->busy_until : t;
    int64_t tx_end = start + (int64_t)((double)len * 8.0 / d->rate * 1e9 + 0.5);
    d->busy_until = tx_end;
    pkt_t *p = &d->ring[d->tail % RING];
    p->tx_end = tx_end;
    p->deliver_at = tx_end + (int64_t)(d->delay * 1e9 + 0.5);
    p->len = len;
    p->data = malloc(len);
    if (!p->data) die("malloc");
    memcpy(p->data, buf, len);
    d->tail++;
}

static void deliver(dir_t *d, int64_t t) {
    while (d->head < d->tail && d->ring[d->head % RING].deliver_at <= t) {
        pkt_t *p = &d->ring[d->head % RING];
        int64_t w = now_ns(); /* the write time: earlier packets of this batch count in it */
        if (write(d->out_fd, p->data, p->len) == p->len) {
            d->n_out++;
            d->bytes_out += p->len;
            late_add(&d->late, w - p->deliver_at);
            if (p->len > 0 && (p->data[0] >> 4) == 4) last_out_ns = w;
        }
        free(p->data);
        d->head++;
    }
}

static double arg_num(const char *s, const char *name) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s) { fprintf(stderr, "linkemu: %s must be a number, got '%s'\n", name, s); exit(2); }
    return v;
}

static void print_dir(const char *name, dir_t *d) {
    printf("\"%s\":{\"in\":%ld,\"lost\":%ld,\"queue_drops\":%ld,\"out\":%ld,\"bytes_in\":%lld,\"bytes_out\":%lld,"
           "\"max_backlog\":%ld,", name, d->n_in, d->n_loss, d->n_qdrop, d->n_out, d->bytes_in, d->bytes_out,
           d->max_backlog);
    print_late(&d->late);
    printf("}");
}

#ifdef LINKEMU_LATENESS_TEST
int main(void) {
    static late_t h;
    long long v;
    while (scanf("%lld", &v) == 1) late_add(&h, (int64_t)v);
    printf("{");
    print_late(&h);
    printf("}\n");
    return 0;
}
#else
int main(int argc, char **argv) {
    if (argc != 14) {
        fprintf(stderr, "usage: linkemu NS_A DEV_A NS_B DEV_B RATE_AB RATE_BA DELAY_AB DELAY_BA LOSS_AB LOSS_BA "
                        "QUEUE_AB QUEUE_BA SEED\n");
        return 2;
    }
    static dir_t ab, ba;
    ab.rate = arg_num(argv[5], "RATE_AB"); ba.rate = arg_num(argv[6], "RATE_BA");
    ab.delay = arg_num(argv[7], "DELAY_AB"); ba.delay = arg_num(argv[8], "DELAY_BA");
    ab.loss = arg_num(argv[9], "LOSS_AB"); ba.loss = arg_num(argv[10], "LOSS_BA");
    ab.queue = (long)arg_num(argv[11], "QUEUE_AB"); ba.queue = (long)arg_num(argv[12], "QUEUE_BA");
    uint64_t seed = strtoull(argv[13], NULL, 10);
    if (!(ab.rate > 0 && ba.rate > 0 && ab.delay >= 0 && ba.delay >= 0 && ab.loss >= 0 && ab.loss < 1 &&
          ba.loss >= 0 && ba.loss < 1 && ab.queue >= 1 && ba.queue >= 1)) {
        fprintf(stderr, "linkemu: need rates > 0, delays >= 0, losses in [0, 1), queues >= 1\n");
        return 2;
    }
    ab.rng = seed * 2 + 1; ba.rng = seed * 2 + 2;
    prctl(PR_SET_TIMERSLACK, 1UL);
    /* real-time priority (root only; best effort): the emulator's timers must not wait behind other jobs.
       It never spins: every wait is a ppoll, so it cannot starve the machine. */
    struct sched_param sp = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) { /* not permitted: keep the normal policy */ }
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* the emulator never outlives the Python process that started it */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int fa = open_tun(argv[1], argv[2]);
    int fb = open_tun(argv[3], argv[4]);
    ab.in_fd = fa; ab.out_fd = fb; ba.in_fd = fb; ba.out_fd = fa;
    printf("ready\n");
    fflush(stdout);
    static unsigned char buf[MAXPKT];
    struct pollfd pfd[2] = {{fa, POLLIN, 0}, {fb, POLLIN, 0}};
    sigset_t empty;
    sigemptyset(&empty);
    while (!stop) {
        int64_t t = now_ns(), next = -1;
        if (ab.head < ab.tail) next = ab.ring[ab.head % RING].deliver_at;
        if (ba.head < ba.tail && (next < 0 || ba.ring[ba.head % RING].deliver_at < next))
            next = ba.ring[ba.head % RING].deliver_at;
        struct timespec ts, *tp = NULL;
        if (next >= 0) {
            int64_t wait = next > t ? next - t : 0;
            ts.tv_sec = wait / 1000000000LL;
            ts.tv_nsec = wait % 1000000000LL;
            tp = &ts;
        }
        int r = ppoll(pfd, 2, tp, &empty);
        if (r < 0 && errno != EINTR) die("ppoll");
        t = now_ns();
        for (int i = 0; i < 2 && r > 0; i++) {
            if (!(pfd[i].revents & POLLIN)) continue;
            dir_t *d = i == 0 ? &ab : &ba;
            for (;;) {
                ssize_t n = read(pfd[i].fd, buf, sizeof buf);
                if (n <= 0) break;
                arrive(d, buf, (int)n, t);
            }
        }
        t = now_ns();
        deliver(&ab, t);
        deliver(&ba, t);
    }
    static late_t both;
    late_merge(&both, &ab.late);
    late_merge(&both, &ba.late);
    printf("{");
    print_dir("ab", &ab);
    printf(",");
    print_dir("ba", &ba);
    printf(",");
    print_late(&both);
    printf(",\"first_in_ns\":%lld,\"last_out_ns\":%lld", (long long)first_in_ns, (long long)last_out_ns);
    printf("}\n");
    fflush(stdout);
    return 0;
}
#endif
