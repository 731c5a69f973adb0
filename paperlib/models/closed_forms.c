/* The compiled path of two closed forms, each in one pass over its arrays with its range checks:
 *
 *   slow_start_latency: paper 004 Eq. (5)/(6), corrected form (paperlib/models/slow_start_latency.py)
 *   mean_waiting_same:  paper 000 Eq. (4)                     (paperlib/models/multiuser_waiting.py)
 *
 * The NumPy path of each module is the source of truth: it reads as the paper's equation and runs without a
 * compiler. This file exists for speed only (one pass over the arrays instead of one per NumPy operation and
 * range check) and follows it: each kernel is the same sequence of IEEE-754 double operations as the NumPy
 * path of its module, so the two give the same bits (tests/test_models_compiled.py); a change to a formula
 * is made there first, then here. Compiled by paperlib/models/compiled.py without -ffast-math and with
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

#define MAX_OPERANDS 6

/* A formula on one chunk: `len` points of the operands chunk[k], the constants, the results. Returns 1 if a
 * point fails the checks, 0 otherwise. */
typedef int (*chunk_formula)(size_t len, const double *const chunk[], const double constants[], double *res);

/* Run `formula` over n points in chunks of CHUNK; a single-value operand is copied into a chunk-long buffer
 * once, so every chunk reads contiguous memory only. Returns 1 if any point failed the checks. */
static int over_chunks(size_t n, int count, const double *const operands[], const int is_scalar[],
                       chunk_formula formula, const double constants[], double *out)
{
    double filled[MAX_OPERANDS][CHUNK];
    const double *chunk[MAX_OPERANDS];
    for (int k = 0; k < count; k++)
        if (is_scalar[k])
            for (size_t i = 0; i < CHUNK; i++)
                filled[k][i] = operands[k][0];
    int bad = 0;
    for (size_t start = 0; start < n; start += CHUNK) {
        for (int k = 0; k < count; k++)
            chunk[k] = is_scalar[k] ? filled[k] : operands[k] + start;
        bad |= formula(n - start < CHUNK ? n - start : CHUNK, chunk, constants, out + start);
    }
    return bad;
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

/* Paper 004 Eq. (5), corrected form: setup T_r + L_obj/mu + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu,
 * gamma = max(min(alpha - 1, beta), 0) with alpha - 1 = floor(log2((L_obj/(x L_mtu) + 1) shave)) (Eq. (1))
 * and beta = floor(log2(((mu T_r / L_mtu) + 1) / x nudge)) + 1 (Eq. (4)); shave = 2^-eps and nudge = 2^eps
 * are the tolerance of slow_start_latency.py, passed in so that both paths use the same constants.
 * mu = inf: beta = inf where T_r > 0 (gamma = alpha - 1) and 0 where T_r = 0.
 * The source of truth is _latency_corrected_numpy in slow_start_latency.py (readable, needs no compiler); this
 * loop exists for speed (one pass instead of one per NumPy operation) and repeats its operations in order. */
static int latency_chunk(size_t len, const double *const chunk[], const double constants[], double *restrict res)
{
    const double *restrict obj = chunk[0], *restrict mtu = chunk[1], *restrict rate = chunk[2];
    const double *restrict rtt = chunk[3], *restrict x = chunk[4], *restrict setup = chunk[5];
    const double shave = constants[0], nudge = constants[1];
    int bad = 0;
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
    return bad;
}

int slow_start_latency(size_t n, const double *const operands[6], const int is_scalar[6], double shave,
                       double nudge, double *out)
{
    const double constants[2] = {shave, nudge};
    return over_chunks(n, 6, operands, is_scalar, latency_chunk, constants, out);
}

/* Paper 000 Eq. (4): W = (m - 1)(2n - 1) tau / 2, evaluated as ((m - 1)(n - 1/2)) tau (the same bits: n - 1/2
 * and the product are exact for whole m, n below 2^52, and halving commutes with rounding). */
static int waiting_chunk(size_t len, const double *const chunk[], const double constants[], double *restrict res)
{
    const double *restrict m = chunk[0], *restrict k = chunk[1], *restrict tau = chunk[2];
    (void)constants;
    int bad = 0;
    for (size_t i = 0; i < len; i++) {
        double mi = m[i], ki = k[i], ti = tau[i];
        bad |= !(mi > 0) | !(mi < INFINITY) | !whole(mi) | !(ki > 0) | !(ki < INFINITY) | !whole(ki)
             | !(ti > 0) | !(ti < INFINITY);
        res[i] = ((mi - 1.0) * (ki - 0.5)) * ti;
    }
    return bad;
}

int mean_waiting_same(size_t n, const double *const operands[3], const int is_scalar[3], double *out)
{
    return over_chunks(n, 3, operands, is_scalar, waiting_chunk, NULL, out);
}
