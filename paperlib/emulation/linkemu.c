/* linkemu: a user-space link emulator between two TUN devices in two network namespaces.
 *
 * Each direction (a->b, b->a) is one link: Bernoulli loss with its own seeded generator (applied to
 * every packet as it arrives), then a queue (drop-tail by default, RED on request), serialisation at
 * `rate` bits/s (IP packet length, plus --frame-overhead bytes), then a constant one-way propagation `delay`
 * (plus an optional extra delay per address pair). The TUN devices are created by this process (not
 * persistent): they vanish with it, so killing the process is the device teardown.
 *
 * Usage: linkemu NS_A DEV_A NS_B DEV_B RATE_AB RATE_BA DELAY_AB DELAY_BA LOSS_AB LOSS_BA QUEUE_AB QUEUE_BA SEED
 *                [--red-ab MIN_TH,MAX_TH,QW,MAX_P,GENTLE,MEAN_PKT_BYTES] [--red-ba ...] [--ns3-backlog]
 *                [--pair A_IP,B_IP,DELAY_AB_S,DELAY_BA_S]... [--queue-log PATH,INTERVAL_S] [--frame-overhead BYTES]
 *   rates in bit/s, delays in s, losses in [0, 1), queues in packets (>= 1), seed an unsigned integer.
 * A bad flag or value exits with status 2 and a message naming it.
 * Prints "ready" on stdout once both devices exist, then on SIGTERM/SIGINT one JSON line of counters, with
 * first_in_ns / last_out_ns: the CLOCK_MONOTONIC times of the first IPv4 packet read and the last one written.
 * SIGUSR1 marks the counters (once; a later SIGUSR1 is ignored): the final line then also gives "mark_ns" (the
 * CLOCK_MONOTONIC time of the mark) and per direction "since_mark", the counters' growth from the mark on
 * ("in","lost","queue_drops","out","bytes_in","bytes_out", with RED "red":{...}): a run's counts after its
 * warm-up, as ns-3's testbed counts them.
 *
 * Queue, two definitions of the backlog:
 *  - drop-tail (default, no flag): the backlog is every packet not yet fully serialised, the one on the wire
 *    included; an arriving packet is dropped when QUEUE_xx packets are in it. So at most QUEUE_xx packets are
 *    in the link's queue and serialiser together.
 *  - ns-3's queue disc (`--red-xx` for that direction, or `--ns3-backlog` for both): the link stands for
 *    ns-3's bottleneck as paperlib.sim.web_testbed builds it, a queue disc in front of a point-to-point
 *    device whose own queue holds one packet. Such a device holds two packets (one being serialised, one in
 *    its 1-packet queue, refilled from the disc the moment the one before it starts serialising): packet i
 *    leaves the disc at max(its arrival, transmission start of the packet before it). The backlog is the
 *    number of packets in the disc (ns-3's QueueDisc::GetNPackets(), what web_testbed samples); QUEUE_xx
 *    limits that count (ns-3's MaxSize), so up to QUEUE_xx + 2 packets are in the link. A drop-tail queue
 *    with --ns3-backlog is ns-3's FifoQueueDisc of MaxSize QUEUE_xx.
 *  Remaining differences to ns-3: the serialised length is the IP packet's unless --frame-overhead BYTES (a
 *  whole number, both directions) adds a link-layer header to every packet (ns-3's point-to-point: 2), and
 *  packets read in one batch share one time stamp (ns-3 would run the device's wake-up between them: for such
 *  ties the backlog can differ by one packet).
 *
 * RED (`--red-ab` / `--red-ba`): Floyd & Jacobson (1993) as ns-3's RedQueueDisc computes it (ns-3.44,
 * src/traffic-control/model/red-queue-disc.cc) in packet mode with MinTh, MaxTh, QW, LInterm = 1/MAX_P, Gentle,
 * MeanPktSize, LinkBandwidth = RATE_xx and the defaults Wait = true, UseEcn = false, UseHardDrop = true, no
 * ARED/AdaptMaxP/FengAdaptive/NLRED/Ns1Compat, cautious mode 0. At every arrival (after the Bernoulli loss)
 * with n = the disc backlog before it: if the disc is marked idle, m = (uint32) (ptc x (now - idle start)),
 * ptc = RATE / (8 MEAN_PKT_BYTES); avg = avg (1 - QW)^(m+1) + QW n; count++; then if avg >= MIN_TH and n > 1:
 * forced drop if avg >= MAX_TH (not gentle) or >= 2 MAX_TH (gentle); else the first packet after crossing
 * MIN_TH resets count to 1; else p_b = (avg - MIN_TH) / (MAX_TH - MIN_TH) x MAX_P (gentle above MAX_TH:
 * (1 - MAX_P)/MAX_TH x avg + 2 MAX_P - 1), p_a = 0 if count p_b < 1, p_b / (2 - count p_b) if < 2, else 1
 * ("Wait"), and one uniform u in [0, 1) is drawn: drop (early) if u <= p_a, count = 0. Otherwise (avg below
 * MIN_TH or n <= 1) count keeps its increment and the "old" flag is cleared. A packet RED keeps is dropped if
 * the disc holds QUEUE_xx (counted as forced; ns-3's internal queue drops it, reason "Dropped by internal
 * queue"). The disc is marked idle (with the time)
 * whenever a packet starts serialisation and none waits in the disc (ns-3's dequeue from an empty disc when
 * the device wakes it), and unmarked by every arrival and every packet leaving the disc. The average
 * changes only at arrivals. The uniforms come from a splitmix64 stream seeded by SEED and the direction
 * (not ns-3's MRG32k3a stream).
 *
 * --pair A_IP,B_IP,DELAY_AB_S,DELAY_BA_S (up to 64): IPv4 packets from A_IP to B_IP (read from DEV_A, direction
 * ab) get DELAY_AB_S more one-way delay, those from B_IP to A_IP (direction ba) DELAY_BA_S more, after
 * serialisation, on top of DELAY_xx; other packets get DELAY_xx only. Each distinct total delay of a direction
 * is a FIFO of its own; packets are written from the FIFO whose head is due first, so each leaves at its
 * deliver_at (never early) whatever the mix of delays.
 *
 * --queue-log PATH,INTERVAL_S: every INTERVAL_S from the 'ready' line (t_s = 0, INTERVAL_S, ...), both
 * directions' backlog in packets (ns-3's definition above, whatever the queue's limit) and, where RED runs,
 * RED's average as last computed (at the latest arrival before the sample), kept in memory and written at exit
 * to PATH (a temporary file renamed into place) as CSV: t_s,direction,backlog_packets,red_avg_packets (empty
 * for drop-tail).
 *
 * Final JSON line: per direction "in","lost","queue_drops" (every queue drop: RED's and the limit's),"out",
 * "bytes_in","bytes_out","max_backlog" (the most packets not yet fully serialised, the arrival included),
 * with the ns-3 backlog also "max_disc_backlog", with RED "red":{"early_drops","forced_drops" (average above
 * the forced threshold, or the limit),"arrivals" (packets that reached the queue)}, then "lateness".
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
 * Compiled with -DLINKEMU_RED_TEST (link with -lm) it runs direction ab's queue code on a trace instead of
 * TUN devices: usage `linkemu RATE QUEUE [--red-ab ...] [--ns3-backlog] [--frame-overhead BYTES]`, stdin lines
 * "u VALUE" (the uniforms RED draws, in order) and "a T_NS LENGTH" (arrivals, times increasing); per arrival
 * it prints "T_NS BACKLOG_BEFORE DECISION AVG" (decision 0 kept, 1 early drop, 2 forced by the average, 3 the
 * limit; AVG nan without RED), then "uniforms_used N".
 * Timers: ppoll with a nanosecond timeout on CLOCK_MONOTONIC, timer slack 1 ns, SCHED_FIFO priority 10 when
 * permitted (so a loaded machine delays the emulator less).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <math.h>
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

#define MAXPAIRS 64
#define NCLASS (MAXPAIRS + 1) /* delay classes per direction: DELAY_xx alone, and one per pair at most */

enum { DEC_KEEP = 0, DEC_EARLY = 1, DEC_FORCED = 2, DEC_LIMIT = 3, DEC_LOST = 4 };

typedef struct {
    int64_t deliver_at; /* ns: end of serialisation + the class's delay */
    int len, next;      /* next: the pool index of the next packet of the same delay class (-1: none) */
    unsigned char *data;
} pkt_t;

typedef struct { /* a kept packet on its way through the serialiser, in arrival order */
    int64_t arrive, tx_start, tx_end, disc_out; /* ns; disc_out: when it leaves ns-3's queue disc */
} sched_t;

typedef struct { /* ns-3's RedQueueDisc, packet mode (see the header comment) */
    double min_th, max_th, qw, max_p; /* as given */
    int gentle;
    uint32_t mean_pkt;
    double ptc, v_a, v_b, v_c, v_d, cur_max_p; /* InitializeParams */
    double avg, v_prob;
    uint32_t count, count_bytes, old, idle;
    int64_t idle_time;
    long early, forced, arrivals;
} red_t;

typedef struct {
    int in_fd, out_fd;
    double rate, delay, loss;
    long queue, overhead; /* overhead: link-layer bytes serialised with every packet */
    uint64_t rng, red_rng;
    int use_disc, use_red; /* ns-3's queue-disc backlog; RED on it */
    red_t red;
    int64_t busy_until, last_tx_start;
    sched_t sched[RING];
    long s_head, s_tail, s_wake; /* sched[s_head..s_tail) kept; s_wake: next whose serialisation start is unseen */
    long last_backlog;           /* the backlog the latest arrival saw */
    pkt_t pool[RING];
    int free_top, free_idx[RING];
    long inflight;
    int nclass, c_head[NCLASS], c_tail[NCLASS];
    int64_t c_delay_ns[NCLASS];
    double c_delay[NCLASS];
    int npairs;
    uint32_t p_src[MAXPAIRS], p_dst[MAXPAIRS]; /* network byte order */
    int p_class[MAXPAIRS];
    long n_in, n_loss, n_qdrop, n_out;
    long long bytes_in, bytes_out;
    long max_backlog, max_disc_backlog;
    late_t late;
} dir_t;

/* The run's transfer on the link: the CLOCK_MONOTONIC time (ns) of the first IPv4 packet read from a device and of
   the last IPv4 packet written to one (-1: none). Packets of other versions (a kernel's IPv6 chatter on a device
   that comes up) do not count: the run's applications speak IPv4 only. */
static int64_t first_in_ns = -1, last_out_ns = -1;

static volatile sig_atomic_t stop = 0;
static void on_signal(int sig) { (void)sig; stop = 1; }
static volatile sig_atomic_t mark_asked = 0;
static void on_mark(int sig) { (void)sig; mark_asked = 1; }

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

static double arg_num(const char *s, const char *name) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s) { fprintf(stderr, "linkemu: %s must be a number, got '%s'\n", name, s); exit(2); }
    return v;
}

/* --- RED: ns-3's RedQueueDisc (InitializeParams, DoEnqueue, DropEarly, CalculatePNew, ModifyP, DoDequeue) --- */

static void red_init(red_t *r, double rate, int64_t t0) {
    r->ptc = (double)(uint64_t)(rate + 0.5) / (8.0 * r->mean_pkt); /* DataRate::GetBitRate() is a whole number */
    double th_diff = r->max_th - r->min_th;
    if (th_diff == 0) th_diff = 1.0;
    r->v_a = 1.0 / th_diff;
    r->cur_max_p = 1.0 / (1.0 / r->max_p); /* ns-3 keeps LInterm = 1 / max_p and takes 1 / LInterm */
    r->v_b = -r->min_th / th_diff;
    if (r->gentle) {
        r->v_c = (1.0 - r->cur_max_p) / r->max_th;
        r->v_d = 2.0 * r->cur_max_p - 1.0;
    }
    r->avg = 0.0;
    r->v_prob = 0.0;
    r->count = r->count_bytes = r->old = 0;
    r->idle = 1;
    r->idle_time = t0;
}

static double red_uniform(dir_t *d);

static double red_p_new(const red_t *r) {
    double p;
    if (r->gentle && r->avg >= r->max_th) p = r->v_c * r->avg + r->v_d;
    else if (!r->gentle && r->avg >= r->max_th) p = 1.0;
    else {
        p = r->v_a * r->avg + r->v_b;
        p *= r->cur_max_p;
    }
    if (p > 1.0) p = 1.0;
    return p;
}

static double red_modify_p(const red_t *r, double p) { /* Wait = true, packet mode */
    double count1 = (double)r->count;
    if (count1 * p < 1.0) p = 0.0;
    else if (count1 * p < 2.0) p /= (2.0 - count1 * p);
    else p = 1.0;
    if (p > 1.0) p = 1.0;
    return p;
}

/* RED's decision for a packet of `size` bytes arriving at `now` with `n_queued` packets in the disc:
   DEC_KEEP, DEC_EARLY or DEC_FORCED (the disc's limit is the caller's). */
static int red_enqueue(dir_t *d, uint32_t n_queued, uint32_t size, int64_t now) {
    red_t *r = &d->red;
    uint32_t m = 0;
    if (r->idle == 1) {
        double x = r->ptc * ((double)(now - r->idle_time) * 1e-9);
        m = x >= 4294967295.0 ? 4294967295u : (uint32_t)x;
        r->idle = 0;
    }
    double ave = r->avg * pow(1.0 - r->qw, (double)(uint32_t)(m + 1)); /* ns-3's Estimator */
    ave += r->qw * n_queued;
    r->avg = ave;
    r->count++;
    r->count_bytes += size;
    int dec = DEC_KEEP;
    if (r->avg >= r->min_th && n_queued > 1) {
        if ((!r->gentle && r->avg >= r->max_th) || (r->gentle && r->avg >= 2 * r->max_th)) {
            dec = DEC_FORCED;
        } else if (r->old == 0) {
            r->count = 1;
            r->count_bytes = size;
            r->old = 1;
        } else {
            r->v_prob = red_modify_p(r, red_p_new(r));
            double u = red_uniform(d);
            if (u <= r->v_prob) {
                r->count = 0;
                r->count_bytes = 0;
                dec = DEC_EARLY;
            }
        }
    } else {
        r->v_prob = 0.0;
        r->old = 0;
    }
    return dec;
}

static void red_dequeue(red_t *r, int disc_empty, int64_t now) {
    if (disc_empty) {
        r->idle = 1;
        r->idle_time = now;
    } else {
        r->idle = 0;
    }
}

/* --- the serialiser and the queue ------------------------------------------------------------------------------ */

static void sched_pop(dir_t *d, int64_t t) { /* forget kept packets fully serialised whose start was seen */
    while (d->s_head < d->s_tail && d->s_head < d->s_wake && d->sched[d->s_head % RING].tx_end <= t) d->s_head++;
}

static long serial_backlog(const dir_t *d, int64_t t) { /* packets not yet fully serialised */
    long n = 0;
    for (long i = d->s_tail - 1; i >= d->s_head && d->sched[i % RING].tx_end > t; i--) n++;
    return n;
}

static long disc_backlog(const dir_t *d, int64_t t) { /* packets in ns-3's queue disc */
    long n = 0;
    for (long i = d->s_tail - 1; i >= d->s_head && d->sched[i % RING].disc_out > t; i--) n++;
    return n;
}

/* The device's wake-ups up to t (inclusive or not): at each packet's start of serialisation the device asks the
   disc for the next packet; if none waits there (the next kept packet arrived later), RED marks itself idle. */
static void disc_wakes(dir_t *d, int64_t t, int inclusive) {
    while (d->s_wake < d->s_tail) {
        const sched_t *j = &d->sched[d->s_wake % RING];
        if (inclusive ? j->tx_start > t : j->tx_start >= t) break;
        int waiting = d->s_wake + 1 < d->s_tail && d->sched[(d->s_wake + 1) % RING].arrive < j->tx_start;
        if (d->use_red) red_dequeue(&d->red, !waiting, j->tx_start);
        d->s_wake++;
    }
}

static int delay_class(const dir_t *d, const unsigned char *buf, int len) {
    if (d->npairs == 0 || len < 20 || (buf[0] >> 4) != 4) return 0;
    uint32_t src, dst;
    memcpy(&src, buf + 12, 4);
    memcpy(&dst, buf + 16, 4);
    for (int i = 0; i < d->npairs; i++)
        if (d->p_src[i] == src && d->p_dst[i] == dst) return d->p_class[i];
    return 0;
}

/* A packet of `len` bytes read at t: lost, dropped by the queue, or kept (returns the decision). */
static int arrive(dir_t *d, unsigned char *buf, int len, int64_t t) {
    if (first_in_ns < 0 && len > 0 && (buf[0] >> 4) == 4) first_in_ns = t;
    d->n_in++;
    d->bytes_in += len;
    if (d->loss > 0 && uniform(&d->rng) < d->loss) { d->n_loss++; return DEC_LOST; }
    sched_pop(d, t);
    long q = serial_backlog(d, t);
    int dec = DEC_KEEP;
    if (d->use_disc) {
        disc_wakes(d, t, 0);
        long n = disc_backlog(d, t);
        d->last_backlog = n;
        if (d->use_red) dec = red_enqueue(d, (uint32_t)n, (uint32_t)len, t);
        if (dec == DEC_KEEP && n >= d->queue) dec = DEC_LIMIT;
    } else {
        d->last_backlog = q;
        if (q >= d->queue) dec = DEC_LIMIT;
    }
    if (dec == DEC_KEEP && (d->inflight >= RING || d->s_tail - d->s_head >= RING)) dec = DEC_LIMIT;
    if (d->use_red) {
        d->red.arrivals++;
        if (dec == DEC_EARLY) d->red.early++;
        else if (dec != DEC_KEEP) d->red.forced++;
    }
    if (dec != DEC_KEEP) { d->n_qdrop++; return dec; }
    if (q + 1 > d->max_backlog) d->max_backlog = q + 1;
    int64_t start = d->busy_until > t ? d->busy_until : t;
    int64_t tx_end = start + (int64_t)((double)(len + d->overhead) * 8.0 / d->rate * 1e9 + 0.5);
    d->busy_until = tx_end;
    sched_t *s = &d->sched[d->s_tail % RING];
    s->arrive = t;
    s->tx_start = start;
    s->tx_end = tx_end;
    s->disc_out = d->s_tail > 0 && d->last_tx_start > t ? d->last_tx_start : t;
    d->last_tx_start = start;
    d->s_tail++;
    if (d->use_disc) {
        disc_wakes(d, t, 1);
        long n = disc_backlog(d, t);
        if (n > d->max_disc_backlog) d->max_disc_backlog = n;
    } else {
        d->s_wake = d->s_tail;
    }
    int c = delay_class(d, buf, len);
    int k = d->free_idx[--d->free_top];
    pkt_t *p = &d->pool[k];
    p->deliver_at = tx_end + d->c_delay_ns[c];
    p->len = len;
    p->next = -1;
    p->data = malloc(len > 0 ? len : 1);
    if (!p->data) die("malloc");
    memcpy(p->data, buf, len);
    if (d->c_tail[c] >= 0) d->pool[d->c_tail[c]].next = k; else d->c_head[c] = k;
    d->c_tail[c] = k;
    d->inflight++;
    return DEC_KEEP;
}

static int64_t next_due(const dir_t *d, int *cls) { /* the earliest deliver_at of the classes' heads, -1: none */
    int64_t best = -1;
    for (int c = 0; c < d->nclass; c++) {
        int k = d->c_head[c];
        if (k >= 0 && (best < 0 || d->pool[k].deliver_at < best)) { best = d->pool[k].deliver_at; *cls = c; }
    }
    return best;
}

static void deliver(dir_t *d, int64_t t) {
    int c = 0;
    for (int64_t at = next_due(d, &c); at >= 0 && at <= t; at = next_due(d, &c)) {
        int k = d->c_head[c];
        pkt_t *p = &d->pool[k];
        int64_t w = now_ns(); /* the write time: earlier packets of this batch count in it */
        if (write(d->out_fd, p->data, p->len) == p->len) {
            d->n_out++;
            d->bytes_out += p->len;
            late_add(&d->late, w - p->deliver_at);
            if (p->len > 0 && (p->data[0] >> 4) == 4) last_out_ns = w;
        }
        free(p->data);
        p->data = NULL;
        d->c_head[c] = p->next;
        if (p->next < 0) d->c_tail[c] = -1;
        d->free_idx[d->free_top++] = k;
        d->inflight--;
    }
}

static void dir_init(dir_t *d, int64_t t0) {
    d->free_top = 0;
    for (int k = RING - 1; k >= 0; k--) d->free_idx[d->free_top++] = k;
    for (int c = 0; c < NCLASS; c++) d->c_head[c] = d->c_tail[c] = -1;
    if (d->nclass == 0) d->nclass = 1;
    d->c_delay[0] = d->delay;
    d->c_delay_ns[0] = (int64_t)(d->delay * 1e9 + 0.5);
    if (d->use_red) { d->use_disc = 1; red_init(&d->red, d->rate, t0); }
}

/* --- options ----------------------------------------------------------------------------------------------------- */

static void bad(const char *flag, const char *value, const char *why) {
    fprintf(stderr, "linkemu: bad %s '%s': %s\n", flag, value, why);
    exit(2);
}

static int split(char *s, char **field, int max) { /* comma-separated fields, in place; returns how many */
    int n = 0;
    for (char *p = s;; n++) {
        char *comma = strchr(p, ',');
        if (n < max) field[n] = p;
        if (!comma) return n + 1;
        *comma = 0;
        p = comma + 1;
    }
}

static double field_num(const char *flag, const char *value, const char *s, const char *name) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || !isfinite(v)) {
        char why[160];
        snprintf(why, sizeof why, "%s must be a number, got '%s'", name, s);
        bad(flag, value, why);
    }
    return v;
}

static void parse_red(dir_t *d, const char *flag, const char *value) {
    if (d->use_red) bad(flag, value, "given twice");
    char buf[512], *f[6];
    snprintf(buf, sizeof buf, "%s", value);
    if (split(buf, f, 6) != 6) bad(flag, value, "need MIN_TH,MAX_TH,QW,MAX_P,GENTLE,MEAN_PKT_BYTES");
    red_t *r = &d->red;
    r->min_th = field_num(flag, value, f[0], "MIN_TH");
    r->max_th = field_num(flag, value, f[1], "MAX_TH");
    r->qw = field_num(flag, value, f[2], "QW");
    r->max_p = field_num(flag, value, f[3], "MAX_P");
    double g = field_num(flag, value, f[4], "GENTLE");
    double mean = field_num(flag, value, f[5], "MEAN_PKT_BYTES");
    if (!(r->min_th >= 0)) bad(flag, value, "MIN_TH must be >= 0");
    if (!(r->max_th > r->min_th)) bad(flag, value, "MAX_TH must be above MIN_TH");
    if (!(r->qw > 0 && r->qw <= 1)) bad(flag, value, "QW must be in (0, 1]");
    if (!(r->max_p > 0 && r->max_p <= 1)) bad(flag, value, "MAX_P must be in (0, 1]");
    if (g != 0 && g != 1) bad(flag, value, "GENTLE must be 0 or 1");
    if (!(mean >= 1 && mean <= 65535 && mean == (double)(uint32_t)mean))
        bad(flag, value, "MEAN_PKT_BYTES must be a whole number in [1, 65535]");
    r->gentle = (int)g;
    r->mean_pkt = (uint32_t)mean;
    d->use_red = 1;
}

static int add_class(dir_t *d, double extra) {
    double total = d->delay + extra;
    if (d->nclass == 0) d->nclass = 1;
    if (extra == 0) return 0;
    for (int c = 1; c < d->nclass; c++)
        if (d->c_delay[c] == total) return c;
    int c = d->nclass++;
    d->c_delay[c] = total;
    d->c_delay_ns[c] = (int64_t)(total * 1e9 + 0.5);
    return c;
}

static void parse_pair(dir_t *ab, dir_t *ba, const char *flag, const char *value) {
    if (ab->npairs >= MAXPAIRS) bad(flag, value, "at most 64 pairs");
    char buf[512], *f[4];
    snprintf(buf, sizeof buf, "%s", value);
    if (split(buf, f, 4) != 4) bad(flag, value, "need A_IP,B_IP,DELAY_AB_S,DELAY_BA_S");
    struct in_addr a, b;
    if (inet_pton(AF_INET, f[0], &a) != 1) bad(flag, value, "A_IP must be an IPv4 address");
    if (inet_pton(AF_INET, f[1], &b) != 1) bad(flag, value, "B_IP must be an IPv4 address");
    double dab = field_num(flag, value, f[2], "DELAY_AB_S");
    double dba = field_num(flag, value, f[3], "DELAY_BA_S");
    if (!(dab >= 0 && dab <= 3600)) bad(flag, value, "DELAY_AB_S must be in [0, 3600]");
    if (!(dba >= 0 && dba <= 3600)) bad(flag, value, "DELAY_BA_S must be in [0, 3600]");
    for (int i = 0; i < ab->npairs; i++)
        if (ab->p_src[i] == a.s_addr && ab->p_dst[i] == b.s_addr) bad(flag, value, "pair given twice");
    int i = ab->npairs++;
    ba->npairs++;
    ab->p_src[i] = a.s_addr; ab->p_dst[i] = b.s_addr; ab->p_class[i] = add_class(ab, dab);
    ba->p_src[i] = b.s_addr; ba->p_dst[i] = a.s_addr; ba->p_class[i] = add_class(ba, dba);
}

static char *log_path = NULL;
static double log_interval = 0;

static void parse_log(const char *flag, const char *value) {
    if (log_path) bad(flag, value, "given twice");
    const char *comma = strrchr(value, ',');
    if (!comma || comma == value) bad(flag, value, "need PATH,INTERVAL_S");
    log_interval = field_num(flag, value, comma + 1, "INTERVAL_S");
    if (!(log_interval >= 1e-6 && log_interval <= 3600)) bad(flag, value, "INTERVAL_S must be in [1e-6, 3600]");
    log_path = strndup(value, comma - value);
    if (!log_path) die("strndup");
}

/* the flags after the positional arguments; a direction's delays must be set before (pairs add to them) */
static void parse_flags(int argc, char **argv, int first, dir_t *ab, dir_t *ba) {
    for (int i = first; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--ns3-backlog") == 0) { ab->use_disc = ba->use_disc = 1; continue; }
        int known = !strcmp(flag, "--red-ab") || !strcmp(flag, "--red-ba") || !strcmp(flag, "--pair") ||
                    !strcmp(flag, "--queue-log") || !strcmp(flag, "--frame-overhead");
        if (!known)
            bad("flag", flag, "unknown; known: --red-ab, --red-ba, --pair, --queue-log, --ns3-backlog, "
                              "--frame-overhead");
        if (i + 1 >= argc) bad(flag, "", "needs a value");
        const char *value = argv[++i];
        if (!strcmp(flag, "--red-ab")) parse_red(ab, flag, value);
        else if (!strcmp(flag, "--red-ba")) parse_red(ba, flag, value);
        else if (!strcmp(flag, "--pair")) parse_pair(ab, ba, flag, value);
        else if (!strcmp(flag, "--queue-log")) parse_log(flag, value);
        else {
            double v = field_num(flag, value, value, "BYTES");
            if (!(v >= 0 && v <= 1000 && v == (double)(long)v))
                bad(flag, value, "BYTES must be a whole number in [0, 1000]");
            ab->overhead = ba->overhead = (long)v;
        }
    }
}

/* The counters a SIGUSR1 marks (see the header comment). */
typedef struct {
    long in, lost, qdrop, out, early, forced, arrivals;
    long long bytes_in, bytes_out;
} counts_t;

static int64_t mark_ns = -1;

static counts_t counts_of(const dir_t *d) {
    counts_t c = {d->n_in, d->n_loss, d->n_qdrop, d->n_out, d->red.early, d->red.forced, d->red.arrivals,
                  d->bytes_in, d->bytes_out};
    return c;
}

static void print_since(const dir_t *d, const counts_t *m) {
    counts_t c = counts_of(d);
    printf("\"since_mark\":{\"in\":%ld,\"lost\":%ld,\"queue_drops\":%ld,\"out\":%ld,\"bytes_in\":%lld,"
           "\"bytes_out\":%lld", c.in - m->in, c.lost - m->lost, c.qdrop - m->qdrop, c.out - m->out,
           c.bytes_in - m->bytes_in, c.bytes_out - m->bytes_out);
    if (d->use_red)
        printf(",\"red\":{\"early_drops\":%ld,\"forced_drops\":%ld,\"arrivals\":%ld}", c.early - m->early,
               c.forced - m->forced, c.arrivals - m->arrivals);
    printf("},");
}

static void print_dir(const char *name, dir_t *d, const counts_t *mark) {
    printf("\"%s\":{\"in\":%ld,\"lost\":%ld,\"queue_drops\":%ld,\"out\":%ld,\"bytes_in\":%lld,\"bytes_out\":%lld,"
           "\"max_backlog\":%ld,", name, d->n_in, d->n_loss, d->n_qdrop, d->n_out, d->bytes_in, d->bytes_out,
           d->max_backlog);
    if (d->use_disc) printf("\"max_disc_backlog\":%ld,", d->max_disc_backlog);
    if (d->use_red)
        printf("\"red\":{\"early_drops\":%ld,\"forced_drops\":%ld,\"arrivals\":%ld},", d->red.early, d->red.forced,
               d->red.arrivals);
    if (mark_ns >= 0) print_since(d, mark);
    print_late(&d->late);
    printf("}");
}

/* --- the queue log ----------------------------------------------------------------------------------------------- */

typedef struct {
    int64_t t_ns; /* since 'ready' */
    long q[2];
    double avg[2];
} sample_t;

static sample_t *samples;
static long n_samples, cap_samples, sample_k;
static int64_t log_t0, next_sample = -1;

static void take_samples(dir_t *ab, dir_t *ba, int64_t t) { /* every sample due by t, at its own time */
    while (log_path && next_sample >= 0 && next_sample <= t) {
        if (n_samples == cap_samples) {
            cap_samples = cap_samples ? 2 * cap_samples : 4096;
            samples = realloc(samples, cap_samples * sizeof *samples);
            if (!samples) die("realloc");
        }
        sample_t *s = &samples[n_samples++];
        s->t_ns = next_sample - log_t0;
        dir_t *d[2] = {ab, ba};
        for (int i = 0; i < 2; i++) {
            s->q[i] = disc_backlog(d[i], next_sample);
            s->avg[i] = d[i]->red.avg;
        }
        sample_k++;
        next_sample = log_t0 + (int64_t)((double)sample_k * log_interval * 1e9 + 0.5);
    }
}

static int write_log(const dir_t *ab, const dir_t *ba) { /* 0 on success */
    if (!log_path) return 0;
    size_t n = strlen(log_path) + 32;
    char *tmp = malloc(n);
    if (!tmp) die("malloc");
    snprintf(tmp, n, "%s.tmp%ld", log_path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, "linkemu: --queue-log %s: %s\n", tmp, strerror(errno)); free(tmp); return 1; }
    fprintf(f, "t_s,direction,backlog_packets,red_avg_packets\n");
    const dir_t *d[2] = {ab, ba};
    const char *name[2] = {"ab", "ba"};
    for (long k = 0; k < n_samples; k++)
        for (int i = 0; i < 2; i++) {
            fprintf(f, "%.6f,%s,%ld,", (double)samples[k].t_ns * 1e-9, name[i], samples[k].q[i]);
            if (d[i]->use_red) fprintf(f, "%.17g", samples[k].avg[i]);
            fprintf(f, "\n");
        }
    int bad_write = fflush(f) != 0 || fsync(fileno(f)) != 0;
    bad_write |= fclose(f) != 0;
    if (bad_write || rename(tmp, log_path) != 0) {
        fprintf(stderr, "linkemu: --queue-log %s: %s\n", log_path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return 1;
    }
    free(tmp);
    return 0;
}

#ifdef LINKEMU_RED_TEST
static double *u_list;
static long u_n, u_cap, u_next;
#endif

static double red_uniform(dir_t *d) {
#ifdef LINKEMU_RED_TEST
    (void)d;
    if (u_next >= u_n) { fprintf(stderr, "linkemu: the trace's uniforms ran out after %ld\n", u_n); exit(3); }
    return u_list[u_next++];
#else
    return uniform(&d->red_rng);
#endif
}

#if defined(LINKEMU_LATENESS_TEST)
int main(void) {
    static late_t h;
    long long v;
    while (scanf("%lld", &v) == 1) late_add(&h, (int64_t)v);
    printf("{");
    print_late(&h);
    printf("}\n");
    return 0;
}
#elif defined(LINKEMU_RED_TEST)
int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: linkemu RATE QUEUE [--red-ab ...] [--ns3-backlog] [--frame-overhead BYTES] < trace\n");
        return 2;
    }
    static dir_t ab, ba;
    ab.rate = ba.rate = arg_num(argv[1], "RATE");
    ab.queue = ba.queue = (long)arg_num(argv[2], "QUEUE");
    if (!(ab.rate > 0 && ab.queue >= 1)) { fprintf(stderr, "linkemu: need RATE > 0, QUEUE >= 1\n"); return 2; }
    parse_flags(argc, argv, 3, &ab, &ba);
    dir_init(&ab, 0);
    dir_init(&ba, 0);
    ab.out_fd = ba.out_fd = -1;
    static unsigned char buf[MAXPKT];
    buf[0] = 0x45;
    char line[256];
    long lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        double u;
        long long t;
        int len;
        if (sscanf(line, "u %lf", &u) == 1) {
            if (u_n == u_cap) {
                u_cap = u_cap ? 2 * u_cap : 4096;
                u_list = realloc(u_list, u_cap * sizeof *u_list);
                if (!u_list) die("realloc");
            }
            u_list[u_n++] = u;
        } else if (sscanf(line, "a %lld %d", &t, &len) == 2 && len >= 1 && len <= MAXPKT) {
            int dec = arrive(&ab, buf, len, (int64_t)t);
            printf("%lld %ld %d %.17g\n", t, ab.last_backlog, dec, ab.use_red ? ab.red.avg : NAN);
            deliver(&ab, (int64_t)t);
        } else {
            fprintf(stderr, "linkemu: trace line %ld: need 'u VALUE' or 'a T_NS LENGTH', got %s", lineno, line);
            return 2;
        }
    }
    printf("uniforms_used %ld\n", u_next);
    return 0;
}
#else
int main(int argc, char **argv) {
    if (argc < 14) {
        fprintf(stderr, "usage: linkemu NS_A DEV_A NS_B DEV_B RATE_AB RATE_BA DELAY_AB DELAY_BA LOSS_AB LOSS_BA "
                        "QUEUE_AB QUEUE_BA SEED [--red-ab MIN_TH,MAX_TH,QW,MAX_P,GENTLE,MEAN_PKT_BYTES] [--red-ba ...] "
                        "[--ns3-backlog] [--pair A_IP,B_IP,DELAY_AB_S,DELAY_BA_S]... [--queue-log PATH,INTERVAL_S] "
                        "[--frame-overhead BYTES]\n");
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
    parse_flags(argc, argv, 14, &ab, &ba);
    ab.rng = seed * 2 + 1; ba.rng = seed * 2 + 2;
    ab.red_rng = (seed * 2 + 1) ^ 0x5851F42D4C957F2DULL; ba.red_rng = (seed * 2 + 2) ^ 0x5851F42D4C957F2DULL;
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
    sa.sa_handler = on_mark;
    sigaction(SIGUSR1, &sa, NULL);
    static counts_t mark_ab, mark_ba;
    int fa = open_tun(argv[1], argv[2]);
    int fb = open_tun(argv[3], argv[4]);
    ab.in_fd = fa; ab.out_fd = fb; ba.in_fd = fb; ba.out_fd = fa;
    int64_t t0 = now_ns();
    dir_init(&ab, t0);
    dir_init(&ba, t0);
    if (log_path) { log_t0 = t0; next_sample = t0; }
    printf("ready\n");
    fflush(stdout);
    static unsigned char buf[MAXPKT];
    struct pollfd pfd[2] = {{fa, POLLIN, 0}, {fb, POLLIN, 0}};
    sigset_t empty;
    sigemptyset(&empty);
    while (!stop) {
        int64_t t = now_ns(), next = -1, at;
        int c;
        if ((at = next_due(&ab, &c)) >= 0) next = at;
        if ((at = next_due(&ba, &c)) >= 0 && (next < 0 || at < next)) next = at;
        if (next_sample >= 0 && (next < 0 || next_sample < next)) next = next_sample;
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
        take_samples(&ab, &ba, t);
        if (mark_asked && mark_ns < 0) { /* before this round's arrivals: they come after the mark */
            mark_ns = t;
            mark_ab = counts_of(&ab);
            mark_ba = counts_of(&ba);
        }
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
    take_samples(&ab, &ba, now_ns());
    int status = write_log(&ab, &ba);
    static late_t both;
    late_merge(&both, &ab.late);
    late_merge(&both, &ba.late);
    printf("{");
    print_dir("ab", &ab, &mark_ab);
    printf(",");
    print_dir("ba", &ba, &mark_ba);
    printf(",");
    print_late(&both);
    printf(",\"first_in_ns\":%lld,\"last_out_ns\":%lld", (long long)first_in_ns, (long long)last_out_ns);
    if (mark_ns >= 0) printf(",\"mark_ns\":%lld", (long long)mark_ns);
    printf("}\n");
    fflush(stdout);
    return status;
}
#endif
