/* The floor for `make bench`: paper 004 Eq. (5)/(6), corrected form, in one pass over the arrays.
 *
 * The same arithmetic as paperlib/models/slow_start_latency.py (transfer_latency_s with
 * form="corrected"), element by element, with no temporaries: what the machine can do for this
 * formula. Arguments are contiguous float64 arrays of length n (already broadcast); finite rates
 * only (the bench grid has no infinite rate). Compiled by bench/model_floors.py with the gcc the
 * package already needs (flags and tolerance: see bench/model_floors.py).
 */
#include <math.h>
#include <stddef.h>

#define EPS 1e-9

void slow_start_latency(size_t n, const double *obj, const double *mtu, const double *rate,
                        const double *rtt, const double *x, double setup_rtts, double *out)
{
    for (size_t i = 0; i < n; i++) {
        double alpha_minus_1 = ceil(log2(obj[i] / (x[i] * mtu[i]) + 1.0) - EPS) - 1.0; /* Eq. (1) */
        double beta = floor(log2((rate[i] * rtt[i] / mtu[i] + 1.0) / x[i]) + EPS) + 1.0; /* Eq. (4) */
        double gamma = fmax(fmin(alpha_minus_1, beta), 0.0);
        double seg = mtu[i] / rate[i];
        double stall = gamma * (rtt[i] + seg) - (exp2(gamma) - 1.0) * x[i] * seg;
        out[i] = obj[i] / rate[i] + setup_rtts * rtt[i] + stall; /* Eq. (5) */
    }
}
