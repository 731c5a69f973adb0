/* The floor for `make bench`: paper 002's per-object algorithm and Table I, one pass over the points.
 *
 * The same arithmetic as paperlib/models/http_response_time.py (_transfer, the scalar loop, and
 * response_times_grid's totals), point by point, with no temporaries: what the machine can do for
 * this model. Every point runs its own loop of a + 1 steps (a = N p made whole). Arguments are
 * contiguous float64 arrays of length n (already broadcast); the switches of the reading are ints:
 * log_ceil (log_mode "ceil"), a_round (a_mode "round"), n_ceil (n_mode "ceil"), final_n
 * (final_chunk "N"), hob_zero (hob_in_ca "zero"), post_ss (post_loss_slow_start), sctp_printed
 * (sctp_total "printed"). Compiled by bench/model_floors.py (flags and tolerance: see there).
 */
#include <math.h>
#include <stddef.h>

#define EPS 1e-9
#define REL 1e-12
#define TODETECT_RTTS 1.5

static double lg(double v, int log_ceil)
{
    double l = log2(v);
    return log_ceil ? ceil(l - EPS) : l;
}

static double sc(double n, double s, double rtt, double q, int log_ceil) /* Eqs. (2)-(6), (14) */
{
    if (n <= 0)
        return 0.0;
    double p = fmax(0.0, fmin(q, lg(n + 1.0, log_ceil) - 1.0));
    return p * (rtt + s) - (exp2(p) - 1.0) * s;
}

static double xloss(double n, double p) /* Eq. (1) */
{
    if (p == 0)
        return n;
    double lost_by_n = -expm1(n * log1p(-p));
    return fmin(n, lost_by_n * (1.0 - p) / p + 1.0);
}

static double window_y(double x, int log_ceil) /* Eqs. (8)-(9) */
{
    return log_ceil ? exp2(lg(x + 1.0, log_ceil) - 1.0) : (x + 1.0) / 2.0;
}

void http_response_time(size_t n_points, const double *obj, const double *mss, const double *rate,
                        const double *rtt_a, const double *p_a, const double *th_a, const double *it_a,
                        const double *m_a, const double *pi_a, int log_ceil, int a_round, int n_ceil, int final_n,
                        int hob_zero, int post_ss, int sctp_printed, double *ot_out, double *hob_out,
                        double *tcp_out, double *sctp_out)
{
    for (size_t k = 0; k < n_points; k++) {
        double s = mss[k] / rate[k], rtt = rtt_a[k], p = p_a[k], th = th_a[k];
        double n = obj[k] / mss[k];
        if (n_ceil)
            n = ceil(n * (1 - REL));
        long a = 0;
        if (p != 0)
            a = a_round ? (long)floor(n * p + 0.5) : (long)ceil(n * p * (1 - REL));
        double q = floor(log2(1.0 + rtt / s) + EPS) + 1.0;
        double to = TODETECT_RTTS * rtt, ot = 0.0, tot_hob = 0.0;
        for (long i = 1; i <= a + 1; i++) {
            int last = i == a + 1;
            double x = last ? n : xloss(n, p);
            double ath = 2.0 * th - 1.0;
            int in_ss = x + 1.0 <= ath;
            double big_l = in_ss ? 0.0 : fmax(0.0, x - ath);
            double chunk = (last && final_n) ? x * s : (x + 1.0) * s;
            double hob = 0.0, added, y;
            if (i == 1 && in_ss) { /* Eq. (12) */
                added = sc(x, s, rtt, q, log_ceil) + chunk;
                if (!last) {
                    y = window_y(x, log_ceil);
                    if (y > th)
                        th = y;
                    hob = (y - (x - y)) * s;
                    added += hob + to;
                    th = th / 2.0;
                    n = n - x + (y - (x - y));
                }
            } else if (i == 1) { /* Eqs. (14)-(15) */
                added = sc(ath, s, rtt, q, log_ceil) + chunk + big_l * rtt;
            } else { /* steps (8)-(12) */
                added = chunk + big_l * rtt;
                if (post_ss)
                    added += sc(in_ss ? x : ath, s, rtt, q, log_ceil);
            }
            if (!last && !(i == 1 && in_ss)) { /* a loss outside the first slow start: HOB, TOdetect, (T + L)/2 */
                if (!(i == 1 && hob_zero)) {
                    y = window_y(x, log_ceil);
                    hob = (y - (x - y)) * s;
                }
                added += hob + to;
                th = (th + big_l) / 2.0;
                n = n - x + 1.0;
            }
            ot += added;
            tot_hob += hob;
        }
        double it = it_a[k], m = m_a[k], pi = pi_a[k]; /* Table I */
        ot_out[k] = ot;
        hob_out[k] = tot_hob;
        tcp_out[k] = pi >= m ? it + (rtt + ot) : it + m / pi * (rtt + ot);
        sctp_out[k] = sctp_printed ? it + rtt + (ot - tot_hob) : it + m * (rtt + ot - tot_hob);
    }
}
