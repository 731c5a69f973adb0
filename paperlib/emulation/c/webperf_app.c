/*
 * webperf_app: the request/response application of papers 000, 002 and 004,
 * over kernel TCP or over usrsctp (SCTP in user space, UDP encapsulation).
 *
 * Papers: 000 section 4 ("two Linux C server programs ... imitate HTTP
 * over SCTP and HTTP over TCP ... two client programs ... pipelining
 * (TCP/SCTP) and multi-streaming (SCTP)"); paper 002 section III.A; paper 004
 * section 3 ("the client program for HTTP over SCTP sent five objects on
 * multiple streams using round robin; ... TCP sends five objects on a single
 * stream").
 *
 * Wire protocol (both transports): the client sends a 16-byte request
 * {magic "WPRQ", object index (u32), object size in bytes (u64)}, network
 * byte order; the server answers with that many bytes. TCP: one persistent
 * connection per user, replies in request order (HTTP/1.1 persistent
 * connection, optionally pipelined). SCTP: one association per user; a request
 * and its reply travel on the same stream; one reply is one SCTP message.
 *
 * Output: JSON lines on stdout. Client: one "settings" line, one "user" line
 * per user, one "object" line per object; times are CLOCK_MONOTONIC seconds.
 * Server: one "settings" line, one "conn" line per accepted connection with
 * the sender state in force at accept (TCP_INFO / SCTP_STATUS), and with
 * --connections an "end" line. Both ends report the namespace's UDP datagrams
 * dropped for a full receive buffer during the run ("udp_rcvbuf_errors": host
 * drops, which must be 0 for the emulated link to be the only loss).
 *
 * Exit codes: 0 success, 1 run-time error (network, peer), 2 bad arguments,
 * 3 --timeout reached.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <usrsctp.h>

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define EXIT_TIMEOUT 3

#define REQ_MAGIC 0x57505251u /* "WPRQ" */
#define REQ_LEN 16
#define MAX_OBJECTS 1024
#define MAX_USERS 1024
#define MAX_OBJECT_BYTES (64u * 1024u * 1024u)
#define SCTP_STREAMS 256
/* IPv4 (20) + UDP (8) + SCTP common header (12) + DATA chunk header (16). */
#define SCTP_UDP_OVERHEAD 56

enum transport { T_TCP, T_SCTP };

struct config {
    int is_server;
    enum transport transport;
    const char *server_addr;
    const char *bind_addr;
    int port;
    int udp_port;        /* local UDP encapsulation port (sctp) */
    int server_udp_port; /* remote UDP encapsulation port (sctp client) */
    uint64_t objects[MAX_OBJECTS];
    int n_objects;
    int users;
    int streams;
    int pipeline;
    uint64_t seed;
    double start_jitter;
    double timeout;
    int connections; /* server: exit after this many connections ended (0 = never) */
    int mss;         /* 0 = stack default */
    /* usrsctp pins; -1 = leave the stack default */
    long init_cwnd, rto_initial_ms, rto_min_ms, rto_max_ms, sack_delay_ms, sack_freq, max_burst;
};

static struct config cfg;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("webperf_app: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stdout);
    _exit(code);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "webperf_app: error: --timeout reached before the run finished\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    _exit(EXIT_TIMEOUT);
}

static void on_term(int sig)
{
    (void)sig;
    _exit(0);
}

/* ------------------------------------------------------------------ arguments */

static void usage(void)
{
    fputs(
        "usage: webperf_app server --transport tcp|sctp --port P [--bind ADDR] [--udp-port U]\n"
        "                          [--connections K] [--timeout S] [--mss B] [sctp pins]\n"
        "       webperf_app client --transport tcp|sctp --server ADDR --port P --objects B1,B2,...\n"
        "                          [--users M] [--streams] [--pipeline] [--seed N] [--start-jitter S]\n"
        "                          [--udp-port U] [--server-udp-port U] [--timeout S] [--mss B] [sctp pins]\n"
        "sctp pins: --init-cwnd MTUS --rto-initial-ms MS --rto-min-ms MS --rto-max-ms MS\n"
        "           --sack-delay-ms MS --sack-freq N --max-burst N (packets per send opportunity, 0 = none)\n",
        stderr);
}

static void bad_arg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("webperf_app: bad argument: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    usage();
    exit(EXIT_USAGE);
}

static long parse_long(const char *name, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0')
        bad_arg("%s must be an integer, got '%s'", name, s);
    if (v < lo || v > hi)
        bad_arg("%s must be in [%ld, %ld], got %ld", name, lo, hi, v);
    return v;
}

static double parse_double(const char *name, const char *s, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= lo && v <= hi))
        bad_arg("%s must be a number in [%g, %g], got '%s'", name, lo, hi, s);
    return v;
}

static void parse_objects(const char *s)
{
    char *copy = strdup(s), *save = NULL, *tok;
    cfg.n_objects = 0;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (cfg.n_objects >= MAX_OBJECTS)
            bad_arg("--objects lists more than %d objects", MAX_OBJECTS);
        char name[48];
        snprintf(name, sizeof name, "--objects item %d", cfg.n_objects + 1);
        cfg.objects[cfg.n_objects++] = (uint64_t)parse_long(name, tok, 1, MAX_OBJECT_BYTES);
    }
    free(copy);
    if (cfg.n_objects == 0)
        bad_arg("--objects is empty; give object sizes in bytes, e.g. --objects 13824,13824");
}

enum {
    O_TRANSPORT = 256, O_SERVER, O_BIND, O_PORT, O_UDP_PORT, O_SERVER_UDP_PORT, O_OBJECTS,
    O_USERS, O_STREAMS, O_PIPELINE, O_SEED, O_JITTER, O_TIMEOUT, O_CONNECTIONS, O_MSS,
    O_INIT_CWND, O_RTO_INITIAL, O_RTO_MIN, O_RTO_MAX, O_SACK_DELAY, O_SACK_FREQ, O_MAX_BURST, O_HELP
};

static void parse_args(int argc, char **argv)
{
    static const struct option opts[] = {
        {"transport", required_argument, 0, O_TRANSPORT},
        {"server", required_argument, 0, O_SERVER},
        {"bind", required_argument, 0, O_BIND},
        {"port", required_argument, 0, O_PORT},
        {"udp-port", required_argument, 0, O_UDP_PORT},
        {"server-udp-port", required_argument, 0, O_SERVER_UDP_PORT},
        {"objects", required_argument, 0, O_OBJECTS},
        {"users", required_argument, 0, O_USERS},
        {"streams", no_argument, 0, O_STREAMS},
        {"pipeline", no_argument, 0, O_PIPELINE},
        {"seed", required_argument, 0, O_SEED},
        {"start-jitter", required_argument, 0, O_JITTER},
        {"timeout", required_argument, 0, O_TIMEOUT},
        {"connections", required_argument, 0, O_CONNECTIONS},
        {"mss", required_argument, 0, O_MSS},
        {"init-cwnd", required_argument, 0, O_INIT_CWND},
        {"rto-initial-ms", required_argument, 0, O_RTO_INITIAL},
        {"rto-min-ms", required_argument, 0, O_RTO_MIN},
        {"rto-max-ms", required_argument, 0, O_RTO_MAX},
        {"sack-delay-ms", required_argument, 0, O_SACK_DELAY},
        {"sack-freq", required_argument, 0, O_SACK_FREQ},
        {"max-burst", required_argument, 0, O_MAX_BURST},
        {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0}};
    memset(&cfg, 0, sizeof cfg);
    cfg.transport = -1;
    cfg.port = -1;
    cfg.users = 1;
    cfg.timeout = 60.0;
    cfg.bind_addr = "0.0.0.0";
    cfg.udp_port = -1;
    cfg.server_udp_port = 9899;
    cfg.init_cwnd = cfg.rto_initial_ms = cfg.rto_min_ms = cfg.rto_max_ms = -1;
    cfg.sack_delay_ms = cfg.sack_freq = cfg.max_burst = -1;

    if (argc < 2)
        bad_arg("missing mode: first argument must be 'server' or 'client'");
    if (strcmp(argv[1], "server") == 0)
        cfg.is_server = 1;
    else if (strcmp(argv[1], "client") == 0)
        cfg.is_server = 0;
    else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage();
        exit(0);
    } else
        bad_arg("mode must be 'server' or 'client', got '%s'", argv[1]);

    int have_objects = 0, c;
    opterr = 0;
    optind = 2;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_TRANSPORT:
            if (strcmp(optarg, "tcp") == 0)
                cfg.transport = T_TCP;
            else if (strcmp(optarg, "sctp") == 0)
                cfg.transport = T_SCTP;
            else
                bad_arg("--transport must be 'tcp' or 'sctp', got '%s'", optarg);
            break;
        case O_SERVER: cfg.server_addr = optarg; break;
        case O_BIND: cfg.bind_addr = optarg; break;
        case O_PORT: cfg.port = (int)parse_long("--port", optarg, 1, 65535); break;
        case O_UDP_PORT: cfg.udp_port = (int)parse_long("--udp-port", optarg, 1, 65535); break;
        case O_SERVER_UDP_PORT:
            cfg.server_udp_port = (int)parse_long("--server-udp-port", optarg, 1, 65535);
            break;
        case O_OBJECTS: parse_objects(optarg); have_objects = 1; break;
        case O_USERS: cfg.users = (int)parse_long("--users", optarg, 1, MAX_USERS); break;
        case O_STREAMS: cfg.streams = 1; break;
        case O_PIPELINE: cfg.pipeline = 1; break;
        case O_SEED: cfg.seed = (uint64_t)parse_long("--seed", optarg, 0, 0x7fffffffL); break;
        case O_JITTER: cfg.start_jitter = parse_double("--start-jitter", optarg, 0.0, 3600.0); break;
        case O_TIMEOUT: cfg.timeout = parse_double("--timeout", optarg, 0.001, 86400.0); break;
        case O_CONNECTIONS:
            cfg.connections = (int)parse_long("--connections", optarg, 0, 1000000);
            break;
        case O_MSS: cfg.mss = (int)parse_long("--mss", optarg, 88, 65000); break;
        case O_INIT_CWND: cfg.init_cwnd = parse_long("--init-cwnd", optarg, 1, 1000); break;
        case O_RTO_INITIAL:
            cfg.rto_initial_ms = parse_long("--rto-initial-ms", optarg, 1, 600000);
            break;
        case O_RTO_MIN: cfg.rto_min_ms = parse_long("--rto-min-ms", optarg, 1, 600000); break;
        case O_RTO_MAX: cfg.rto_max_ms = parse_long("--rto-max-ms", optarg, 1, 600000); break;
        case O_SACK_DELAY:
            /* RFC 4960 6.2: the SACK delay must not exceed 500 ms; 0 = SACK every packet. */
            cfg.sack_delay_ms = parse_long("--sack-delay-ms", optarg, 0, 500);
            break;
        case O_SACK_FREQ: cfg.sack_freq = parse_long("--sack-freq", optarg, 1, 1000); break;
        case O_MAX_BURST: cfg.max_burst = parse_long("--max-burst", optarg, 0, 1000); break;
        case O_HELP: usage(); exit(0);
        case '?':
        default:
            if (optopt)
                bad_arg("option %s needs a value or is unknown", argv[optind - 1]);
            bad_arg("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        bad_arg("unexpected argument '%s'", argv[optind]);
    if ((int)cfg.transport == -1)
        bad_arg("--transport is required (tcp or sctp)");
    if (cfg.port < 0)
        bad_arg("--port is required");
    if (cfg.transport == T_TCP) {
        if (cfg.streams)
            bad_arg("--streams needs --transport sctp (TCP has one byte stream)");
        if (cfg.init_cwnd >= 0 || cfg.rto_initial_ms >= 0 || cfg.rto_min_ms >= 0 ||
            cfg.rto_max_ms >= 0 || cfg.sack_delay_ms >= 0 || cfg.sack_freq >= 0 || cfg.max_burst >= 0)
            bad_arg("--init-cwnd/--rto-*/--sack-*/--max-burst pin usrsctp and need --transport sctp "
                    "(kernel TCP is pinned per namespace by the caller)");
    }
    if (cfg.transport == T_SCTP && cfg.udp_port < 0)
        cfg.udp_port = cfg.is_server ? 9899 : 9900;
    if (cfg.rto_min_ms >= 0 && cfg.rto_max_ms >= 0 && cfg.rto_min_ms > cfg.rto_max_ms)
        bad_arg("--rto-min-ms (%ld) exceeds --rto-max-ms (%ld)", cfg.rto_min_ms, cfg.rto_max_ms);
    if (cfg.is_server) {
        if (cfg.server_addr || have_objects || cfg.streams || cfg.pipeline)
            bad_arg("--server/--objects/--streams/--pipeline are client options");
    } else {
        if (!cfg.server_addr)
            bad_arg("--server ADDR is required in client mode");
        if (!have_objects)
            bad_arg("--objects B1,B2,... is required in client mode");
        if (cfg.connections)
            bad_arg("--connections is a server option");
        if (cfg.streams)
            cfg.pipeline = 1; /* one object per stream only helps when requests overlap */
    }
    struct in_addr a;
    if (cfg.server_addr && inet_pton(AF_INET, cfg.server_addr, &a) != 1)
        bad_arg("--server must be an IPv4 address, got '%s'", cfg.server_addr);
    if (inet_pton(AF_INET, cfg.bind_addr, &a) != 1)
        bad_arg("--bind must be an IPv4 address, got '%s'", cfg.bind_addr);
}

/* ------------------------------------------------------------------ transport wrappers */

struct conn {
    enum transport t;
    int fd;
    struct socket *so;
};

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}
static uint32_t get_u32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Send all of buf; on SCTP as one message on stream sid. Returns 0 or -1. */
static int conn_send(struct conn *c, const void *buf, size_t len, uint16_t sid)
{
    if (c->t == T_TCP) {
        const char *p = buf;
        while (len > 0) {
            ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return -1;
            }
            p += n;
            len -= (size_t)n;
        }
        return 0;
    }
    struct sctp_sndinfo si;
    memset(&si, 0, sizeof si);
    si.snd_sid = sid;
    ssize_t n = usrsctp_sendv(c->so, buf, len, NULL, 0, &si, sizeof si, SCTP_SENDV_SNDINFO, 0);
    return (n == (ssize_t)len) ? 0 : -1;
}

/* Receive some bytes. Returns bytes (>0), 0 on orderly close, -1 on error.
 * *sid gets the stream, *eor whether the SCTP message ended (TCP: 0). */
static ssize_t conn_recv(struct conn *c, void *buf, size_t len, uint16_t *sid, int *eor)
{
    *sid = 0;
    *eor = 0;
    if (c->t == T_TCP) {
        for (;;) {
            ssize_t n = recv(c->fd, buf, len, 0);
            if (n < 0 && errno == EINTR)
                continue;
            return n;
        }
    }
    for (;;) {
        struct sctp_rcvinfo ri;
        socklen_t infolen = sizeof ri;
        unsigned int infotype = 0;
        int flags = 0;
        struct sockaddr_in from;
        socklen_t fromlen = sizeof from;
        ssize_t n = usrsctp_recvv(c->so, buf, len, (struct sockaddr *)&from, &fromlen, &ri,
                                  &infolen, &infotype, &flags);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && (flags & MSG_NOTIFICATION))
            continue;
        if (n > 0 && infotype == SCTP_RECVV_RCVINFO)
            *sid = ri.rcv_sid;
        if (flags & MSG_EOR)
            *eor = 1;
        return n;
    }
}

static void conn_close(struct conn *c)
{
    if (c->t == T_TCP) {
        if (c->fd >= 0)
            close(c->fd);
        c->fd = -1;
    } else if (c->so) {
        usrsctp_close(c->so);
        c->so = NULL;
    }
}

static int sctp_set(struct socket *so, int opt, const void *v, socklen_t len, const char *what)
{
    if (usrsctp_setsockopt(so, IPPROTO_SCTP, opt, v, len) < 0) {
        fprintf(stderr, "webperf_app: error: setsockopt %s: %s\n", what, strerror(errno));
        return -1;
    }
    return 0;
}

/* Options common to listening and connecting SCTP sockets. */
static int sctp_socket_options(struct socket *so)
{
    int on = 1;
    struct sctp_initmsg im;
    memset(&im, 0, sizeof im);
    im.sinit_num_ostreams = SCTP_STREAMS;
    im.sinit_max_instreams = SCTP_STREAMS;
    if (sctp_set(so, SCTP_INITMSG, &im, sizeof im, "SCTP_INITMSG") < 0 ||
        sctp_set(so, SCTP_NODELAY, &on, sizeof on, "SCTP_NODELAY") < 0 ||
        sctp_set(so, SCTP_RECVRCVINFO, &on, sizeof on, "SCTP_RECVRCVINFO") < 0)
        return -1;
    if (cfg.mss > 0) {
        struct sctp_paddrparams pp;
        memset(&pp, 0, sizeof pp);
        pp.spp_assoc_id = SCTP_FUTURE_ASSOC;
        pp.spp_flags = SPP_PMTUD_DISABLE;
        pp.spp_pathmtu = (uint32_t)cfg.mss + SCTP_UDP_OVERHEAD;
        if (sctp_set(so, SCTP_PEER_ADDR_PARAMS, &pp, sizeof pp, "SCTP_PEER_ADDR_PARAMS") < 0)
            return -1;
        struct sctp_assoc_value av = {SCTP_FUTURE_ASSOC, (uint32_t)cfg.mss};
        if (sctp_set(so, SCTP_MAXSEG, &av, sizeof av, "SCTP_MAXSEG") < 0)
            return -1;
    }
    return 0;
}

static void tcp_socket_options(int fd)
{
    int on = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) < 0)
        die(EXIT_RUNTIME, "setsockopt TCP_NODELAY: %s", strerror(errno));
    if (cfg.mss > 0 && setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &cfg.mss, sizeof cfg.mss) < 0)
        die(EXIT_RUNTIME, "setsockopt TCP_MAXSEG %d: %s", cfg.mss, strerror(errno));
}

/* ------------------------------------------------------------------ settings */

static int udp_rcvbuf_bytes = 0;

/* usrsctp's UDP encapsulation socket gets a 128 KiB receive buffer: on fast
 * paths (loopback) bursts overflow it and the host, not the emulated link,
 * drops packets (an RTO of 1 s each). Find that socket among our descriptors
 * and enlarge its buffers, so losses happen only where the experiment puts them. */
static void enlarge_udp_buffers(void)
{
    int size = 8 * 1024 * 1024;
    for (int fd = 3; fd < 1024; fd++) {
        int type = 0;
        socklen_t len = sizeof type;
        struct sockaddr_storage ss;
        socklen_t sslen = sizeof ss;
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_DGRAM)
            continue;
        if (getsockname(fd, (struct sockaddr *)&ss, &sslen) < 0)
            continue;
        uint16_t port = 0;
        if (ss.ss_family == AF_INET)
            port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
        else if (ss.ss_family == AF_INET6)
            port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
        if (port != (uint16_t)cfg.udp_port)
            continue;
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) < 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
        if (ss.ss_family == AF_INET) {
            len = sizeof udp_rcvbuf_bytes;
            getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &udp_rcvbuf_bytes, &len);
        }
    }
}

/* The namespace's count of UDP datagrams dropped for a full receive buffer. */
static long udp_rcvbuf_errors(void)
{
    FILE *f = fopen("/proc/net/snmp", "r");
    char head[1024], vals[1024];
    long result = -1;
    if (!f)
        return -1;
    while (fgets(head, sizeof head, f) && fgets(vals, sizeof vals, f)) {
        if (strncmp(head, "Udp:", 4) != 0)
            continue;
        char *hs, *vs, *h = strtok_r(head, " \n", &hs), *v = strtok_r(vals, " \n", &vs);
        while (h && v) {
            if (strcmp(h, "RcvbufErrors") == 0) {
                result = atol(v);
                break;
            }
            h = strtok_r(NULL, " \n", &hs);
            v = strtok_r(NULL, " \n", &vs);
        }
        break;
    }
    fclose(f);
    return result;
}

static void sctp_stack_init(void)
{
    usrsctp_init((uint16_t)cfg.udp_port, NULL, NULL);
    enlarge_udp_buffers();
    /* Pins (stack defaults otherwise; the settings line prints what is in force). */
    if (cfg.init_cwnd >= 0)
        usrsctp_sysctl_set_sctp_initial_cwnd((uint32_t)cfg.init_cwnd);
    if (cfg.rto_initial_ms >= 0)
        usrsctp_sysctl_set_sctp_rto_initial_default((uint32_t)cfg.rto_initial_ms);
    if (cfg.rto_min_ms >= 0)
        usrsctp_sysctl_set_sctp_rto_min_default((uint32_t)cfg.rto_min_ms);
    if (cfg.rto_max_ms >= 0)
        usrsctp_sysctl_set_sctp_rto_max_default((uint32_t)cfg.rto_max_ms);
    if (cfg.sack_delay_ms >= 0)
        usrsctp_sysctl_set_sctp_delayed_sack_time_default((uint32_t)cfg.sack_delay_ms);
    if (cfg.sack_freq >= 0)
        usrsctp_sysctl_set_sctp_sack_freq_default((uint32_t)cfg.sack_freq);
    /* RFC 4960 6.1 (D) and 7.2.4: at most Max.Burst packets per send opportunity (default 4); an
       initial window above it is only sent whole if the limit is raised with it. */
    if (cfg.max_burst >= 0)
        usrsctp_sysctl_set_sctp_max_burst_default((uint32_t)cfg.max_burst);
    /* Generous buffers so a whole object is one message that never blocks on the socket. */
    usrsctp_sysctl_set_sctp_sendspace(4u * 1024u * 1024u);
    usrsctp_sysctl_set_sctp_recvspace(4u * 1024u * 1024u);
    usrsctp_sysctl_set_sctp_blackhole(2); /* no ABORT to stray packets (other tests' ports) */
}

static long udp_errors_start = -1;

static void print_settings(double t0)
{
    pthread_mutex_lock(&out_lock);
    printf("{\"type\":\"settings\",\"mode\":\"%s\",\"transport\":\"%s\",\"nagle\":\"off\","
           "\"t0\":%.9f,\"port\":%d,\"mss\":%d",
           cfg.is_server ? "server" : "client", cfg.transport == T_TCP ? "tcp" : "sctp", t0,
           cfg.port, cfg.mss);
    if (!cfg.is_server) {
        printf(",\"server\":\"%s\",\"users\":%d,\"streams\":%s,\"pipeline\":%s,\"seed\":%" PRIu64
               ",\"start_jitter\":%.6f,\"objects\":[",
               cfg.server_addr, cfg.users, cfg.streams ? "true" : "false",
               cfg.pipeline ? "true" : "false", cfg.seed, cfg.start_jitter);
        for (int i = 0; i < cfg.n_objects; i++)
            printf("%s%" PRIu64, i ? "," : "", cfg.objects[i]);
        printf("]");
    }
    if (cfg.transport == T_SCTP) {
        printf(",\"sctp\":{\"udp_port\":%d,\"remote_udp_port\":%d,\"initial_cwnd_mtus\":%u,"
               "\"rto_initial_ms\":%u,\"rto_min_ms\":%u,\"rto_max_ms\":%u,"
               "\"sack_delay_ms\":%u,\"sack_freq\":%u,\"sack_immediately\":%u,"
               "\"max_burst\":%u,\"cc_module\":%u,\"ecn\":%u,\"nr_sack\":%u,\"streams_offered\":%d,"
               "\"udp_rcvbuf_bytes\":%d}",
               cfg.udp_port, cfg.is_server ? 0 : cfg.server_udp_port,
               usrsctp_sysctl_get_sctp_initial_cwnd(), usrsctp_sysctl_get_sctp_rto_initial_default(),
               usrsctp_sysctl_get_sctp_rto_min_default(), usrsctp_sysctl_get_sctp_rto_max_default(),
               usrsctp_sysctl_get_sctp_delayed_sack_time_default(),
               usrsctp_sysctl_get_sctp_sack_freq_default(),
               usrsctp_sysctl_get_sctp_enable_sack_immediately(),
               usrsctp_sysctl_get_sctp_max_burst_default(), usrsctp_sysctl_get_sctp_default_cc_module(),
               usrsctp_sysctl_get_sctp_ecn_enable(), usrsctp_sysctl_get_sctp_nrsack_enable(),
               SCTP_STREAMS, udp_rcvbuf_bytes);
    }
    if (!cfg.is_server && udp_errors_start >= 0) {
        long end = udp_rcvbuf_errors();
        printf(",\"udp_rcvbuf_errors\":%ld", end >= udp_errors_start ? end - udp_errors_start : -1L);
    }
    printf("}\n");
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

/* One line with the sender's state of a fresh connection (server side). */
static void print_conn_state(struct conn *c, int idx)
{
    pthread_mutex_lock(&out_lock);
    if (c->t == T_TCP) {
        struct tcp_info ti;
        socklen_t len = sizeof ti;
        char cc[32] = "";
        socklen_t cclen = sizeof cc;
        memset(&ti, 0, sizeof ti);
        getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &ti, &len);
        getsockopt(c->fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cclen);
        cc[sizeof cc - 1] = '\0';
        printf("{\"type\":\"conn\",\"conn\":%d,\"transport\":\"tcp\",\"congestion\":\"%s\","
               "\"snd_mss\":%u,\"snd_cwnd_segments\":%u,\"rto_ms\":%.3f,\"options\":%u}\n",
               idx, cc, ti.tcpi_snd_mss, ti.tcpi_snd_cwnd, ti.tcpi_rto / 1000.0, ti.tcpi_options);
    } else {
        struct sctp_status st;
        socklen_t len = sizeof st;
        memset(&st, 0, sizeof st);
        usrsctp_getsockopt(c->so, IPPROTO_SCTP, SCTP_STATUS, &st, &len);
        printf("{\"type\":\"conn\",\"conn\":%d,\"transport\":\"sctp\",\"cwnd_bytes\":%u,"
               "\"path_mtu\":%u,\"fragmentation_point\":%u,\"rto_ms\":%u,\"instreams\":%u,"
               "\"outstreams\":%u}\n",
               idx, st.sstat_primary.spinfo_cwnd, st.sstat_primary.spinfo_mtu,
               st.sstat_fragmentation_point, st.sstat_primary.spinfo_rto, st.sstat_instrms,
               st.sstat_outstrms);
    }
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

/* ------------------------------------------------------------------ server */

static pthread_mutex_t srv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t srv_cond = PTHREAD_COND_INITIALIZER;
static int srv_finished = 0;

struct srv_job {
    struct conn c;
    int idx;
};

static void *serve_conn(void *arg)
{
    struct srv_job *job = arg;
    struct conn *c = &job->c;
    unsigned char req[REQ_LEN];
    size_t have = 0;
    char *payload = NULL;
    size_t payload_len = 0;
    print_conn_state(c, job->idx);
    for (;;) {
        uint16_t sid;
        int eor;
        ssize_t n = conn_recv(c, req + have, REQ_LEN - have, &sid, &eor);
        if (n <= 0)
            break; /* peer closed (or reset): the connection is over */
        have += (size_t)n;
        if (have < REQ_LEN)
            continue;
        have = 0;
        if (get_u32(req) != REQ_MAGIC) {
            fprintf(stderr, "webperf_app: error: connection %d sent a malformed request\n",
                    job->idx);
            break;
        }
        uint64_t nbytes = ((uint64_t)get_u32(req + 8) << 32) | get_u32(req + 12);
        if (nbytes == 0 || nbytes > MAX_OBJECT_BYTES) {
            fprintf(stderr, "webperf_app: error: connection %d asked for %" PRIu64 " bytes\n",
                    job->idx, nbytes);
            break;
        }
        if (nbytes > payload_len) {
            free(payload);
            payload = malloc(nbytes);
            if (!payload)
                die(EXIT_RUNTIME, "out of memory for a %" PRIu64 "-byte object", nbytes);
            memset(payload, 'x', nbytes);
            payload_len = nbytes;
        }
        if (conn_send(c, payload, nbytes, sid) < 0) {
            fprintf(stderr, "webperf_app: error: connection %d: send failed: %s\n", job->idx,
                    strerror(errno));
            break;
        }
    }
    free(payload);
    /* Let the last bytes drain before closing (SCTP close aborts nothing, TCP lingers). */
    conn_close(c);
    pthread_mutex_lock(&srv_lock);
    srv_finished++;
    pthread_cond_signal(&srv_cond);
    pthread_mutex_unlock(&srv_lock);
    free(job);
    return NULL;
}

struct acceptor {
    struct conn listen;
};

static void *accept_loop(void *arg)
{
    struct acceptor *a = arg;
    for (int idx = 0;; idx++) {
        struct srv_job *job = calloc(1, sizeof *job);
        job->idx = idx;
        job->c.t = a->listen.t;
        job->c.fd = -1;
        if (a->listen.t == T_TCP) {
            int fd;
            do
                fd = accept(a->listen.fd, NULL, NULL);
            while (fd < 0 && errno == EINTR);
            if (fd < 0)
                die(EXIT_RUNTIME, "accept: %s", strerror(errno));
            tcp_socket_options(fd);
            job->c.fd = fd;
        } else {
            struct socket *so = usrsctp_accept(a->listen.so, NULL, NULL);
            if (!so)
                die(EXIT_RUNTIME, "usrsctp_accept: %s", strerror(errno));
            int on = 1;
            usrsctp_setsockopt(so, IPPROTO_SCTP, SCTP_NODELAY, &on, sizeof on);
            job->c.so = so;
        }
        pthread_t tid;
        if (pthread_create(&tid, NULL, serve_conn, job) != 0)
            die(EXIT_RUNTIME, "pthread_create failed");
        pthread_detach(tid);
    }
    return NULL;
}

static int run_server(void)
{
    struct acceptor a;
    memset(&a, 0, sizeof a);
    udp_errors_start = udp_rcvbuf_errors();
    a.listen.t = cfg.transport;
    a.listen.fd = -1;
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)cfg.port);
    inet_pton(AF_INET, cfg.bind_addr, &sin.sin_addr);
    if (cfg.transport == T_TCP) {
        int fd = socket(AF_INET, SOCK_STREAM, 0), on = 1;
        if (fd < 0)
            die(EXIT_RUNTIME, "socket: %s", strerror(errno));
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        tcp_socket_options(fd);
        if (bind(fd, (struct sockaddr *)&sin, sizeof sin) < 0)
            die(EXIT_RUNTIME, "bind %s:%d: %s", cfg.bind_addr, cfg.port, strerror(errno));
        if (listen(fd, 128) < 0)
            die(EXIT_RUNTIME, "listen: %s", strerror(errno));
        a.listen.fd = fd;
    } else {
        sctp_stack_init();
        struct socket *so = usrsctp_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
        if (!so)
            die(EXIT_RUNTIME, "usrsctp_socket: %s (UDP port %d busy?)", strerror(errno),
                cfg.udp_port);
        if (sctp_socket_options(so) < 0)
            die(EXIT_RUNTIME, "SCTP socket options failed");
        if (usrsctp_bind(so, (struct sockaddr *)&sin, sizeof sin) < 0)
            die(EXIT_RUNTIME, "usrsctp_bind %s:%d: %s", cfg.bind_addr, cfg.port, strerror(errno));
        if (usrsctp_listen(so, 128) < 0)
            die(EXIT_RUNTIME, "usrsctp_listen: %s", strerror(errno));
        a.listen.so = so;
    }
    print_settings(now_s());
    pthread_t tid;
    if (pthread_create(&tid, NULL, accept_loop, &a) != 0)
        die(EXIT_RUNTIME, "pthread_create failed");
    pthread_detach(tid);
    pthread_mutex_lock(&srv_lock);
    while (cfg.connections == 0 || srv_finished < cfg.connections)
        pthread_cond_wait(&srv_cond, &srv_lock);
    pthread_mutex_unlock(&srv_lock);
    long end = udp_rcvbuf_errors();
    pthread_mutex_lock(&out_lock);
    printf("{\"type\":\"end\",\"connections\":%d,\"udp_rcvbuf_errors\":%ld}\n", srv_finished,
           (end >= udp_errors_start && udp_errors_start >= 0) ? end - udp_errors_start : -1L);
    fflush(stdout);
    _exit(0); /* the acceptor is blocked in accept(): leave without tearing the stack down */
}

/* ------------------------------------------------------------------ client */

struct obj_rec {
    uint64_t bytes, got;
    uint16_t stream;
    double t_request, t_first_byte, t_done;
};

struct user {
    int idx;
    double t_start, t_connected, t_done;
    struct obj_rec obj[MAX_OBJECTS];
    char error[256];
};

static struct user *users;
static pthread_barrier_t start_barrier;
static int n_streams_negotiated = 1;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int send_request(struct conn *c, struct user *u, int i)
{
    unsigned char req[REQ_LEN];
    put_u32(req, REQ_MAGIC);
    put_u32(req + 4, (uint32_t)i);
    put_u32(req + 8, (uint32_t)(u->obj[i].bytes >> 32));
    put_u32(req + 12, (uint32_t)u->obj[i].bytes);
    u->obj[i].t_request = now_s();
    if (conn_send(c, req, REQ_LEN, u->obj[i].stream) < 0) {
        snprintf(u->error, sizeof u->error, "user %d: sending request %d: %s", u->idx, i,
                 strerror(errno));
        return -1;
    }
    return 0;
}

/* Receive until objects [from, to) are complete. Bytes on stream s belong to
 * the oldest incomplete object requested on s (replies keep request order per
 * stream, and TCP has the one stream 0). */
static int receive_objects(struct conn *c, struct user *u, int from, int to, char *buf, size_t buflen)
{
    int remaining = to - from;
    while (remaining > 0) {
        uint16_t sid;
        int eor;
        ssize_t n = conn_recv(c, buf, buflen, &sid, &eor);
        double t = now_s();
        if (n <= 0) {
            snprintf(u->error, sizeof u->error, "user %d: connection %s with %d object(s) missing",
                     u->idx, n == 0 ? "closed by the server" : strerror(errno), remaining);
            return -1;
        }
        size_t left = (size_t)n;
        while (left > 0) {
            int k;
            for (k = from; k < to; k++)
                if (u->obj[k].stream == sid && u->obj[k].got < u->obj[k].bytes)
                    break;
            if (k == to) {
                snprintf(u->error, sizeof u->error,
                         "user %d: %zu unexpected bytes on stream %u", u->idx, left, sid);
                return -1;
            }
            struct obj_rec *o = &u->obj[k];
            if (o->got == 0)
                o->t_first_byte = t;
            uint64_t take = o->bytes - o->got;
            if (take > left)
                take = left;
            o->got += take;
            left -= (size_t)take;
            if (o->got == o->bytes) {
                o->t_done = t;
                remaining--;
                if (c->t == T_SCTP && (left > 0 || !eor)) {
                    snprintf(u->error, sizeof u->error,
                             "user %d: object %d ended inside an SCTP message", u->idx, k);
                    return -1;
                }
            }
        }
    }
    return 0;
}

static void *user_main(void *arg)
{
    struct user *u = arg;
    struct conn c;
    memset(&c, 0, sizeof c);
    c.t = cfg.transport;
    c.fd = -1;
    size_t buflen = 256 * 1024;
    char *buf = malloc(buflen);
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)cfg.port);
    inet_pton(AF_INET, cfg.server_addr, &sin.sin_addr);

    /* Sockets are made before the common start so that start-up cost is not timed. */
    if (c.t == T_TCP) {
        c.fd = socket(AF_INET, SOCK_STREAM, 0);
        if (c.fd < 0)
            snprintf(u->error, sizeof u->error, "user %d: socket: %s", u->idx, strerror(errno));
        else
            tcp_socket_options(c.fd);
    } else {
        c.so = usrsctp_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
        if (!c.so)
            snprintf(u->error, sizeof u->error, "user %d: usrsctp_socket: %s", u->idx,
                     strerror(errno));
        else if (sctp_socket_options(c.so) < 0)
            snprintf(u->error, sizeof u->error, "user %d: SCTP socket options failed", u->idx);
        else {
            /* Hand data to the application as it arrives (partial delivery from the first
             * byte), interleaving streams, so t_first_byte is the first byte's arrival
             * and a message in reassembly on one stream never holds up another. */
            int level = 2;
            uint32_t pd_point = 1;
            if (sctp_set(c.so, SCTP_FRAGMENT_INTERLEAVE, &level, sizeof level,
                         "SCTP_FRAGMENT_INTERLEAVE") < 0 ||
                sctp_set(c.so, SCTP_PARTIAL_DELIVERY_POINT, &pd_point, sizeof pd_point,
                         "SCTP_PARTIAL_DELIVERY_POINT") < 0)
                snprintf(u->error, sizeof u->error, "user %d: partial delivery not set", u->idx);
            struct sctp_udpencaps enc;
            memset(&enc, 0, sizeof enc);
            enc.sue_address.ss_family = AF_INET;
            enc.sue_port = htons((uint16_t)cfg.server_udp_port);
            if (sctp_set(c.so, SCTP_REMOTE_UDP_ENCAPS_PORT, &enc, sizeof enc,
                         "SCTP_REMOTE_UDP_ENCAPS_PORT") < 0)
                snprintf(u->error, sizeof u->error, "user %d: remote UDP port not set", u->idx);
        }
    }
    uint64_t rng = cfg.seed * 1000003ull + (uint64_t)u->idx;
    double jitter = cfg.start_jitter * ((double)(splitmix64(&rng) >> 11) / 9007199254740992.0);
    pthread_barrier_wait(&start_barrier);
    if (u->error[0])
        goto out;
    if (jitter > 0) {
        struct timespec ts = {(time_t)jitter, (long)((jitter - (double)(time_t)jitter) * 1e9)};
        nanosleep(&ts, NULL);
    }
    u->t_start = now_s();
    int rc = (c.t == T_TCP) ? connect(c.fd, (struct sockaddr *)&sin, sizeof sin)
                            : usrsctp_connect(c.so, (struct sockaddr *)&sin, sizeof sin);
    if (rc < 0) {
        snprintf(u->error, sizeof u->error, "user %d: connect %s:%d: %s", u->idx, cfg.server_addr,
                 cfg.port, strerror(errno));
        goto out;
    }
    u->t_connected = now_s();
    int nstreams = 1;
    if (c.t == T_SCTP && cfg.streams) {
        struct sctp_status st;
        socklen_t len = sizeof st;
        memset(&st, 0, sizeof st);
        if (usrsctp_getsockopt(c.so, IPPROTO_SCTP, SCTP_STATUS, &st, &len) == 0 && st.sstat_outstrms > 0)
            nstreams = st.sstat_outstrms;
        n_streams_negotiated = nstreams;
    }
    for (int i = 0; i < cfg.n_objects; i++) {
        u->obj[i].bytes = cfg.objects[i];
        u->obj[i].stream = (uint16_t)(cfg.streams ? i % nstreams : 0);
    }
    if (cfg.pipeline) {
        for (int i = 0; i < cfg.n_objects; i++)
            if (send_request(&c, u, i) < 0)
                goto out;
        if (receive_objects(&c, u, 0, cfg.n_objects, buf, buflen) < 0)
            goto out;
    } else {
        for (int i = 0; i < cfg.n_objects; i++)
            if (send_request(&c, u, i) < 0 || receive_objects(&c, u, i, i + 1, buf, buflen) < 0)
                goto out;
    }
    u->t_done = now_s();
out:
    conn_close(&c);
    free(buf);
    return NULL;
}

static int run_client(void)
{
    udp_errors_start = udp_rcvbuf_errors();
    if (cfg.transport == T_SCTP)
        sctp_stack_init();
    users = calloc((size_t)cfg.users, sizeof *users);
    pthread_t *tids = calloc((size_t)cfg.users, sizeof *tids);
    if (!users || !tids)
        die(EXIT_RUNTIME, "out of memory for %d users", cfg.users);
    pthread_barrier_init(&start_barrier, NULL, (unsigned)cfg.users + 1);
    for (int u = 0; u < cfg.users; u++) {
        users[u].idx = u;
        if (pthread_create(&tids[u], NULL, user_main, &users[u]) != 0)
            die(EXIT_RUNTIME, "pthread_create for user %d failed", u);
    }
    double t0 = now_s();
    pthread_barrier_wait(&start_barrier);
    for (int u = 0; u < cfg.users; u++)
        pthread_join(tids[u], NULL);
    int failed = 0;
    for (int u = 0; u < cfg.users; u++)
        if (users[u].error[0]) {
            fprintf(stderr, "webperf_app: error: %s\n", users[u].error);
            failed = 1;
        }
    print_settings(t0);
    if (!failed) {
        for (int u = 0; u < cfg.users; u++) {
            struct user *us = &users[u];
            printf("{\"type\":\"user\",\"user\":%d,\"t_start\":%.9f,\"t_connected\":%.9f,"
                   "\"t_done\":%.9f}\n",
                   u, us->t_start, us->t_connected, us->t_done);
            for (int i = 0; i < cfg.n_objects; i++) {
                struct obj_rec *o = &us->obj[i];
                printf("{\"type\":\"object\",\"user\":%d,\"object\":%d,\"stream\":%u,"
                       "\"bytes\":%" PRIu64 ",\"t_request\":%.9f,\"t_first_byte\":%.9f,"
                       "\"t_done\":%.9f}\n",
                       u, i, o->stream, o->bytes, o->t_request, o->t_first_byte, o->t_done);
            }
        }
    }
    fflush(stdout);
    if (cfg.transport == T_SCTP) {
        for (int tries = 0; tries < 300 && usrsctp_finish() != 0; tries++)
            usleep(10000);
    }
    return failed ? EXIT_RUNTIME : 0;
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGALRM, on_alarm);
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    /* --timeout bounds the whole run. */
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)cfg.timeout;
    it.it_value.tv_usec = (suseconds_t)((cfg.timeout - (double)(time_t)cfg.timeout) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
        it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
    return cfg.is_server ? run_server() : run_client();
}
