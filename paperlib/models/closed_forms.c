/* The compiled path of two closed forms, each in one pass over its arrays with its range checks:
 *
 *   slow_start_latency: seed 004 Eq. (5)/(6), corrected form (paperlib/models/slow_start_latency.py)
 *   mean_waiting_same:  seed 000 Eq. (4)                     (paperlib/models/multiuser_waiting.py)
 *
 * Each is the same sequence of IEEE-754 double operations as the NumPy path of its module, so the two
 * give the same bits (tested): compiled by paperlib/models/compiled.py without -ffast-math and with
 * -ffp-contract=off (no fused multiply-add), so the compiler may vectorise but not reorder or fuse.
 * -fno-trapping-math only lets it vectorise the comparisons of the range checks.
 *
 * An operand is an array of n doubles or a single value (is_scalar[k] != 0) that holds for every
 * point. The loop runs over chunks of CHUNK points; a single value is copied into a chunk-long buffer
 * once, so the inner loops read contiguous memory only and the compiler vectorises them.
 *
 * Each kernel returns 0 if every point passed the checks of its NumPy path and 1 otherwise. On 1 the
 * caller discards the output and runs the NumPy checks, which raise naming the parameter and the
 * first bad value.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CHUNK 512

/* The chunk of operand k starting at point `start`: the array itself, or the filled buffer of a single value. */
static const double *chunk_of(const double *data, int is_scalar, const double *filled, size_t start)
{
    return is_scalar ? filled : data + start;
}

static void fill(double *buffer, double value)
{
    for (size_t i = 0; i < CHUNK; i++)
        buffer[i] = value;
}

/* floor(log2(u)) for a positive normal double: its unbiased binary exponent (NumPy: frexp's exponent - 1).
 * Inf and NaN give 1024; subnormals give -1023 (every caller clips negative counts to 0). */
static inline int32_t floor_log2(double u)
{
    uint64_t bits;
    memcpy(&bits, &u, sizeof bits);
    return (int32_t)((bits >> 52) & 0x7ff) - 1023;
}

/* 2^g exactly, for a whole number 0 <= g <= 1023 (NumPy: ldexp(1, g)). */
static inline double exact_pow2(int32_t g)
{
    uint64_t bits = (uint64_t)(g + 1023) << 52;
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline int whole(double a)
{
    return floor(a) == a;
}

/* Seed 004 Eq. (5), corrected form: setup T_r + L_obj/mu + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu,
 * gamma = max(min(alpha - 1, beta), 0) with alpha - 1 = floor(log2((L_obj/(x L_mtu) + 1) shave)) (Eq. (1))
 * and beta = floor(log2(((mu T_r / L_mtu) + 1) / x nudge)) + 1 (Eq. (4)); shave = 2^-eps and nudge = 2^eps
 * are the tolerance of slow_start_latency.py, passed in so that both paths use the same constants.
 * mu = inf: beta = inf where T_r > 0 (gamma = alpha - 1) and 0 where T_r = 0. */
int slow_start_latency(size_t n, const double *const operands[6], const int is_scalar[6], double shave,
                       double nudge, double *out)
{
    double filled[6][CHUNK];
    for (int k = 0; k < 6; k++)
        if (is_scalar[k])
            fill(filled[k], operands[k][0]);
    int bad = 0;
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t len = n - start < CHUNK ? n - start : CHUNK;
        const double *restrict obj = chunk_of(operands[0], is_scalar[0], filled[0], start);
        const double *restrict mtu = chunk_of(operands[1], is_scalar[1], filled[1], start);
        const double *restrict rate = chunk_of(operands[2], is_scalar[2], filled[2], start);
        const double *restrict rtt = chunk_of(operands[3], is_scalar[3], filled[3], start);
        const double *restrict x = chunk_of(operands[4], is_scalar[4], filled[4], start);
        const double *restrict setup = chunk_of(operands[5], is_scalar[5], filled[5], start);
        double *restrict res = out + start;
        for (size_t i = 0; i < len; i++) {
            double o = obj[i], u = mtu[i], r = rate[i], t = rtt[i], w = x[i], s = setup[i];
            bad |= !(o > 0) | !(o < INFINITY) | !(u > 0) | !(u < INFINITY) | !(r > 0) | !(t >= 0)
                 | !(t < INFINITY) | !(w > 0) | !(w < INFINITY) | !whole(w) | !(s >= 0) | !(s < INFINITY);
            int32_t alpha_minus_1 = floor_log2((o / (w * u) + 1.0) * shave);
            int32_t beta = floor_log2((r * t / u + 1.0) / w * nudge) + 1;
            int32_t gamma = alpha_minus_1 < beta ? alpha_minus_1 : beta;
            gamma = r == INFINITY ? (t > 0 ? alpha_minus_1 : 0) : gamma;
            gamma = gamma > 0 ? gamma : 0;
            double seg = u / r;
            double stall = (double)gamma * (t + seg) - (exact_pow2(gamma) - 1.0) * w * seg;
            res[i] = o / r + s * t + stall;
        }
    }
    return bad;
}

/* Seed 000 Eq. (4): W = (m - 1)(2n - 1) tau / 2, evaluated as ((m - 1)(n - 1/2)) tau (the same bits: n - 1/2
 * and the product are exact for whole m, n below 2^52, and halving commutes with rounding). */
int mean_waiting_same(size_t n, const double *const operands[3], const int is_scalar[3], double *out)
{
    double filled[3][CHUNK];
    for (int k = 0; k < 3; k++)
        if (is_scalar[k])
            fill(filled[k], operands[k][0]);
    int bad = 0;
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t len = n - start < CHUNK ? n - start : CHUNK;
        const double *restrict m = chunk_of(operands[0], is_scalar[0], filled[0], start);
        const double *restrict k = chunk_of(operands[1], is_scalar[1], filled[1], start);
        const double *restrict tau = chunk_of(operands[2], is_scalar[2], filled[2], start);
        double *restrict res = out + start;
        for (size_t i = 0; i < len; i++) {
            double mi = m[i], ki = k[i], ti = tau[i];
            bad |= !(mi > 0) | !(mi < INFINITY) | !whole(mi) | !(ki > 0) | !(ki < INFINITY) | !whole(ki)
                 | !(ti > 0) | !(ti < INFINITY);
            res[i] = ((mi - 1.0) * (ki - 0.5)) * ti;
        }
    }
    return bad;
}
