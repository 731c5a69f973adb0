/* The floor for `make bench`: paper 000's E(T) of one object (Eq. (2), Eq. (1), the definition of R),
 * one pass over the points.
 *
 * The same arithmetic as paperlib/models/narrowband_response.py (response_time_s: _eq2 and
 * slow_start_stall_time_s, with paper 004's stall bound and stall count), point by point, with no
 * temporaries: what the machine can do for this model. Every point runs its own loop over its
 * alpha losses. Arguments are contiguous float64 arrays of length n (already broadcast); the
 * switches of the reading are ints: n_ceil (n_mode "ceil"), a_round (a_mode "round"), log_ceil
 * (log_mode "ceil"), final_n1 (final_chunk "N+1"), post_ss (post_loss_slow_start). Finite rates
 * only. Compiled by bench/model_floors.py (flags and tolerance: see there).
 */
#include <math.h>
#include <stddef.h>

#define EPS 1e-9
#define REL 1e-12
#define THRESHOLD_MIN_PACKETS 2.0

/* ST: idle time while k packets are sent in slow start from window w (paper 004 Eqs. (1), (4), (5)). */
static double stall_time(double k, double mtu, double rate, double rtt, double w, int log_ceil)
{
    if (!(k > 0))
        return 0.0;
    double s = mtu / rate;
    double beta = fmax(floor(log2((1 + rate * rtt / mtu) / w) + EPS) + 1, 0.0); /* Eq. (4) */
    double stalls;
    if (log_ceil) {
        double alpha_minus_1 = ceil(log2((k * mtu) / mtu / w + 1) - EPS) - 1; /* Eq. (1) */
        stalls = fmax(fmin(alpha_minus_1, beta), 0.0);
    } else {
        stalls = fmax(0.0, fmin(beta, log2(k / w + 1.0) - 1.0));
    }
    return stalls * (rtt + s) - w * (exp2(stalls) - 1.0) * s;
}

static double xloss(double n, double p) /* paper 002's Eq. (1) */
{
    if (p == 0)
        return n;
    double lost_by_n = -expm1(n * log1p(-p));
    return fmin(n, lost_by_n * (1.0 - p) / p + 1.0);
}

void narrowband_response(size_t n_points, const double *obj, const double *mtu_a, const double *rate_a,
                         const double *rtt_a, const double *p_a, const double *w1, const double *to_a,
                         const double *setup_a, int n_ceil, int a_round, int log_ceil, int final_n1, int post_ss,
                         double *out)
{
    for (size_t k = 0; k < n_points; k++) {
        double mtu = mtu_a[k], rate = rate_a[k], rtt = rtt_a[k], p = p_a[k], to = to_a[k];
        double s = mtu / rate;
        double n = obj[k] / mtu;
        if (n_ceil)
            n = ceil(n * (1 - REL));
        long alpha = 0;
        if (p != 0)
            alpha = a_round ? (long)floor(n * p + 0.5) : (long)ceil(n * p * (1 - REL));
        double remaining = n, th = INFINITY, w = w1[k], total = setup_a[k] * rtt;
        for (long i = 1; i <= alpha; i++) { /* Eq. (2), one term per loss */
            double x = xloss(remaining, p);
            double a_th = isinf(th) ? INFINITY : 2.0 * th - 1.0; /* paper 002's Eq. (7) */
            int in_ss = x < a_th;
            double big_l = in_ss ? 0.0 : x - a_th;
            double stall = (i == 1 || post_ss) ? stall_time(in_ss ? x : a_th, mtu, rate, rtt, w, log_ceil) : 0.0;
            double added = stall + (x + 1.0) * s + big_l * rtt + to;
            double y;
            if (!in_ss)
                y = th + big_l;
            else if (log_ceil)
                y = w * exp2(ceil(log2(x / w + 1.0) - EPS) - 1.0);
            else
                y = (x + w) / 2.0;
            total += added;
            th = fmax(y / 2.0, THRESHOLD_MIN_PACKETS); /* Eq. (1) */
            remaining = remaining - x + 1.0;
            w = 1.0;
        }
        double a_th = isinf(th) ? INFINITY : 2.0 * th - 1.0; /* R */
        int in_ss = remaining < a_th;
        double big_l = in_ss ? 0.0 : remaining - a_th;
        double stall = (alpha == 0 || post_ss) ? stall_time(in_ss ? remaining : a_th, mtu, rate, rtt, w, log_ceil)
                                               : 0.0;
        double chunk = final_n1 ? remaining + 1.0 : remaining;
        out[k] = total + (stall + chunk * s + big_l * rtt);
    }
}
