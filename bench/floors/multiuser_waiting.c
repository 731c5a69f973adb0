/* The floor for `make bench`: paper 000's Eq. (4), the mean waiting time of m users with equal packet
 * times, W = [m(m-1)/2 tau + m(n-1)(m-1) tau] / m (Eq. (3) divided by m), in one pass.
 *
 * The same arithmetic as paperlib/models/multiuser_waiting.py (mean_waiting_time_same), element by
 * element, with no temporaries. Arguments are contiguous float64 arrays of length n_points (already
 * broadcast). Compiled by bench/model_floors.py (flags and tolerance: see there).
 */
#include <stddef.h>

void multiuser_waiting(size_t n_points, const double *m, const double *n, const double *tau, double *out)
{
    for (size_t i = 0; i < n_points; i++)
        out[i] = (m[i] * (m[i] - 1) / 2 * tau[i] + m[i] * (n[i] - 1) * (m[i] - 1) * tau[i]) / m[i];
}
