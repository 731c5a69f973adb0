"""Mean waiting and turnaround time of m users sharing a server link by packet round-robin.

Paper: 000, Y.-J. Lee, "Modeling and performance evaluation of mean
waiting time for multiple web access in the narrowband network", section 3
(Eqs. (3)-(8), Fig. 2) and section 4 (Algorithm 1, Tables 1-3).

The model. Every user's object is cut into n = ceil(theta/mtu) packets
(Algorithm 1 line 2); a packet of a user takes the *packet response time*
tau = E(T_sctp)/n on the server link (line 10), E(T_sctp) being the single-user
response time of the object (paper 000 Eq. (2), paper 002's algorithm). The
server serves the m users by asynchronous TDM on packets: in each round every
user sends one packet, a_1 b_1 c_1 d_1 a_2 b_2 ... (Fig. 2). With several
links of different bandwidths the users fall into groups i = 1..p of m_i users
with packet time tau_i, m = sum m_i.

Assumes (the only reading consistent with the printed terms and with Fig. 2):

* all m users ask at time 0 and the link never idles; one packet at a time;
* round-robin order: groups in index order, users in order within a group,
  the same order in every round; the group order matters for Eqs. (7)-(8);
* the waiting time of a user is his finish time minus his own service
  n tau_i, i.e. the time spent on other users' packets (the text: user a
  waits "(b_1 + c_1 + d_1) + (b_2 + c_2 + d_2)"); the turnaround time is the
  finish time. Hence turnaround - waiting = n tau_i per user, and
  T - W = n sum_i m_i tau_i / m for the means.

Verdicts, checked against the explicit schedule (:func:`round_robin_schedule`):

* Eqs. (3)-(6) (one link, equal tau) are correct as printed. User r
  (1..m) finishes at ((n-1) m + r) tau and waits ((n-1)(m-1) + r - 1) tau, so
  W = (m-1)(2n-1) tau / 2 and T = (2mn - m + 1) tau / 2. Fig. 2 (m = 4,
  n = 3): total waiting 30 tau, mean 7.5 tau, total turnaround 42 tau, mean
  10.5 tau. The "m/m" printed in Eq. (6) is total / m.
* Eq. (7) as printed is wrong in two places. With the round length
  D = sum_j m_j tau_j, user r of group g finishes at
  (n-1) D + sum_{j<g} m_j tau_j + r tau_g and waits
  (n-1) [(m_g - 1) tau_g + sum_{j != g} m_j tau_j] + sum_{j<g} m_j tau_j + (r-1) tau_g.
  Summing over users, the corrected Eq. (7) is

      W = { (n-1) sum_i m_i [(m_i - 1) tau_i + sum_{j != i} m_j tau_j]
            + sum_i [ m_i sum_{j<i} m_j tau_j + sum_{r=1}^{m_i} (r-1) tau_i ] } / m.

  The print has (1) the cross-group term as sum_i sum_{j != i} m_i tau_j,
  without the factor (n-1) and without m_j, although the paper's own words
  say "(the number of packets - 1) x [... + (total packet response time
  excluding i-th group)]"; (2) the last inner sum to m (all users) instead
  of m_i (the users of group i). Its sum_{j=1}^{i} m_i (m_{j-1} tau_{j-1})
  with m_0 = tau_0 = 0 is m_i sum_{j<i} m_j tau_j and is right.
* Eq. (8) as printed has the same upper-limit error: sum_{j=1}^{m} j tau_i
  must be sum_{r=1}^{m_i} r tau_i. Its first term m (n-1) sum_i m_i tau_i is
  right. Corrected:

      T = { m (n-1) sum_i m_i tau_i + sum_i [ m_i sum_{j<i} m_j tau_j + sum_{r=1}^{m_i} r tau_i ] } / m.

* With one group (p = 1) both printed forms reduce to Eqs. (4)/(6) (the
  cross term is empty and m_1 = m), which is why the errors do not show
  there. Example, groups (2 users, tau = 1), (3 users, tau = 2), n = 3: the
  schedule gives W = 15.4, T = 20.2; printed Eq. (7) 14.2, printed Eq. (8) 26.2.
* Tables 1-3 follow neither Eq. (4) (W proportional to m - 1) nor Eq. (6):
  every column grows like (m-1)/m, i.e. like Eq. (4) divided by m once more
  (:func:`mean_waiting_time_tabulated`, offered to test the tables against).

All functions are vectorised (numpy broadcasting) except the schedule, which
is a plain Python loop on purpose: it is the independent check. Times come out
in the unit of the packet times (seconds if tau is in seconds).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.models import compiled

FORMS = ("corrected", "printed")

SCHEDULE_COLUMNS = ("group", "user", "packet_time", "finish_time", "waiting_time", "turnaround_time")

# theta/mtu of an exact multiple can come out a hair above the integer after
# unit conversions; shave this much before ceil() (as slow_start_latency does).
_EPS = 1e-9


# --- Algorithm 1 helpers ----------------------------------------------------------


def packets_per_object(obj_bits, mtu_bits) -> np.ndarray:
    """Return n = ceil(theta / mtu), the number of packets of an object.

    Paper: 000, Algorithm 1 line 2 (and section 3: "n is given by ceil(theta/mtu)").

    Parameters
    ----------
    obj_bits : object size theta (bits)
    mtu_bits : maximum transmission unit mtu (bits)
    """
    obj = validate.positive("obj_bits", obj_bits)
    mtu = validate.positive("mtu_bits", mtu_bits)
    return np.maximum(np.ceil(obj / mtu - _EPS), 1.0)


def packet_response_time_s(response_time_s, n) -> np.ndarray:
    """Return tau = E(T) / n, the packet response time in seconds.

    Paper: 000, Algorithm 1 line 10 (section 3: "packet response time (tau)
    is equal to E(T_sctp)/n when every tau is the same").

    Assumes: the single-user response time is spread evenly over the n packets.

    Parameters
    ----------
    response_time_s : single-user mean response time E(T_sctp) of one object (s)
    n : packets per object (whole number >= 1)
    """
    response = validate.positive("response_time_s", response_time_s)
    n = validate.positive_integer("n", n)
    return response / n


# --- the brute-force construction ---------------------------------------------------


def round_robin_schedule(group_sizes, packet_times, n_packets) -> pd.DataFrame:
    """Return the packet round-robin schedule: one row per user with finish, waiting and turnaround time.

    Paper: 000, Fig. 2 (one group) and the construction behind Eqs. (7)-(8).

    Assumes: all users start at time 0; in each of ``n_packets`` rounds every
    user sends one packet, groups in the given order and users in order within
    a group; a packet of a group-i user occupies the link for tau_i; the link
    never idles. Waiting = finish - n tau_i (time spent on other users'
    packets); turnaround = finish.

    A plain Python loop on purpose: it is the independent check of the closed
    forms, not a fast path.

    Parameters
    ----------
    group_sizes : m_i, users per group (1-D sequence of whole numbers >= 1; a
        scalar is one group)
    packet_times : tau_i, packet time of a group-i user (1-D, same length; s)
    n_packets : n, packets per object (whole number >= 1)

    Returns
    -------
    DataFrame with columns ``group`` (1-based), ``user`` (1-based within the
    group), ``packet_time``, ``finish_time``, ``waiting_time``,
    ``turnaround_time``, in service order.
    """
    sizes = np.atleast_1d(validate.positive_integer("group_sizes", group_sizes))
    times = np.atleast_1d(validate.positive("packet_times", packet_times))
    if sizes.ndim != 1:
        raise validate.ParameterError(f"group_sizes must be 1-D (one entry per group), got shape {sizes.shape}")
    if times.ndim != 1:
        raise validate.ParameterError(f"packet_times must be 1-D (one entry per group), got shape {times.shape}")
    if len(sizes) != len(times):
        raise validate.ParameterError(
            f"group_sizes and packet_times must have one entry per group, got {len(sizes)} and {len(times)}"
        )
    n = validate.positive_integer("n_packets", n_packets)
    if n.ndim:
        raise validate.ParameterError(f"n_packets must be a single whole number, got shape {n.shape}")
    n = int(n)
    sizes_int = [int(s) for s in sizes]
    taus = [float(t) for t in times]

    clock = 0.0
    finish: dict[tuple[int, int], float] = {}
    for _round in range(n):
        for g, (m_g, tau_g) in enumerate(zip(sizes_int, taus, strict=True), start=1):
            for user in range(1, m_g + 1):
                clock += tau_g
                finish[(g, user)] = clock  # the last round's value is the finish time

    rows = []
    for (g, user), done in finish.items():
        tau_g = taus[g - 1]
        rows.append((g, user, tau_g, done, done - n * tau_g, done))
    return pd.DataFrame(rows, columns=list(SCHEDULE_COLUMNS))


# --- one link, equal packet times: Eqs. (3)-(6) -------------------------------------


def _same(m, n, tau):
    return (
        validate.positive_integer("m", m),
        validate.positive_integer("n", n),
        validate.positive("tau", tau),
    )


def total_waiting_time_same(m, n, tau) -> np.ndarray:
    """Return the total waiting time of m users with equal packet times.

    Paper: 000, Eq. (3): sum_{i=1}^{m} (m-i) tau + m (n-1)(m-1) tau,
    with sum_{i=1}^{m} (m-i) = m(m-1)/2. Correct (Fig. 2: 30 tau for m = 4, n = 3).

    Assumes: one link, packet round-robin, all users start together; waiting =
    finish - own service n tau.

    Parameters
    ----------
    m : number of users (whole number >= 1)
    n : packets per object (whole number >= 1)
    tau : packet response time (s)
    """
    m, n, tau = _same(m, n, tau)
    return m * (m - 1) / 2 * tau + m * (n - 1) * (m - 1) * tau


def mean_waiting_time_same(m, n, tau) -> np.ndarray:
    """Return the mean waiting time W^same of m users with equal packet times.

    Paper: 000, Eq. (4): Eq. (3) / m = (m-1)(2n-1) tau / 2. Correct. Evaluated as ((m-1)(n-1/2)) tau,
    the same bits: n - 1/2 and the product are exact for whole m, n below 2^52, and halving commutes with
    rounding. The compiled path (:mod:`paperlib.models.compiled`) checks and computes in one pass, the NumPy
    path checks first; both give the same bits (``make bench`` times them against the floor).

    Assumes: as :func:`total_waiting_time_same`.

    Parameters
    ----------
    m : number of users (whole number >= 1)
    n : packets per object (whole number >= 1)
    tau : packet response time (s)
    """
    if compiled.library() is not None:
        try:
            operands = [validate.numbers(name, value) for name, value in (("m", m), ("n", n), ("tau", tau))]
        except validate.ParameterError:  # name the first bad argument in the order of the full checks
            _same(m, n, tau)
            raise
        out = compiled.evaluate("mean_waiting_same", operands)
        if out is not None:
            return out[()]
    m, n, tau = _same(m, n, tau)  # raises, naming the parameter, if the compiled path found a bad point
    return ((m - 1.0) * (n - 0.5) * tau)[()]


def total_turnaround_time_same(m, n, tau) -> np.ndarray:
    """Return the total turnaround (finish) time of m users with equal packet times.

    Paper: 000, Eq. (5): m tau [m(n-1) + (m+1)/2]. Correct (Fig. 2: 42 tau).

    Assumes: as :func:`total_waiting_time_same`; turnaround = finish time.

    Parameters
    ----------
    m : number of users (whole number >= 1)
    n : packets per object (whole number >= 1)
    tau : packet response time (s)
    """
    m, n, tau = _same(m, n, tau)
    return m * tau * (m * (n - 1) + (m + 1) / 2)


def mean_turnaround_time_same(m, n, tau) -> np.ndarray:
    """Return the mean turnaround time T^same of m users with equal packet times.

    Paper: 000, Eq. (6): (m/m)[m(n-1) + (m+1)/2] tau = [(2mn - m + 1)/2] tau. Correct.

    Assumes: as :func:`total_turnaround_time_same`.

    Parameters
    ----------
    m : number of users (whole number >= 1)
    n : packets per object (whole number >= 1)
    tau : packet response time (s)
    """
    m, n, tau = _same(m, n, tau)
    return (2 * m * n - m + 1) / 2 * tau


def mean_waiting_time_tabulated(m, n, tau) -> np.ndarray:
    """Return (m-1)(2n-1) tau / (2m), the law the published Tables 1-3 follow.

    Paper: 000, Tables 1-3 (research note 002/000, section 2.4).

    This is NOT what Eq. (4) says: it is Eq. (4) divided by m once more
    (equivalently Eq. (4) with tau = E(T)/(n m) instead of Algorithm 1's
    E(T)/n). Every W and T column of Tables 1-3 grows like (m-1)/m within
    print rounding (W(10)/W(5) ~ 1.125, W(30)/W(5) ~ 1.208), while Eq. (4)
    grows like m - 1 (2.25, 7.25) and Eq. (6) about linearly in m. Offered
    so that the tables can be tested against it, not as the model's answer;
    any constant times (m-1)/m fits the tables equally well.

    Parameters
    ----------
    m : number of users (whole number >= 1)
    n : packets per object (whole number >= 1)
    tau : packet response time (s)
    """
    m, n, tau = _same(m, n, tau)
    return (m - 1) * (2 * n - 1) * tau / (2 * m)


# --- groups with different packet times: Eqs. (7)-(8) -------------------------------


def _groups(group_sizes, packet_times):
    sizes = np.atleast_1d(validate.positive_integer("group_sizes", group_sizes))
    times = np.atleast_1d(validate.positive("packet_times", packet_times))
    if sizes.shape[-1] != times.shape[-1]:
        raise validate.ParameterError(
            f"group_sizes and packet_times must have one entry per group (same last axis), "
            f"got {sizes.shape[-1]} and {times.shape[-1]}"
        )
    try:
        sizes, times = np.broadcast_arrays(sizes, times)
    except ValueError:
        raise validate.ParameterError(
            f"group_sizes and packet_times have shapes {sizes.shape} and {times.shape}, which do not broadcast"
        ) from None
    return sizes, times


def _group_terms(group_sizes, packet_times):
    """Return (m_i, tau_i, m, D, prior_i) with D = sum m_j tau_j and prior_i = sum_{j<i} m_j tau_j."""
    sizes, times = _groups(group_sizes, packet_times)
    load = sizes * times
    total_users = sizes.sum(axis=-1)
    round_length = load.sum(axis=-1)
    prior = np.cumsum(load, axis=-1) - load
    return sizes, times, total_users, round_length, prior


def mean_waiting_time_diff(group_sizes, packet_times, n, *, form: str = "corrected") -> np.ndarray:
    """Return the mean waiting time W^diff of p groups of users with different packet times.

    Paper: 000, Eq. (7), m_0 = tau_0 = 0, m = sum m_i.

    ``form="corrected"`` (default; equals the schedule)::

        W = { (n-1) sum_i m_i [(m_i - 1) tau_i + sum_{j != i} m_j tau_j]
              + sum_i [ m_i sum_{j<i} m_j tau_j + sum_{r=1}^{m_i} (r-1) tau_i ] } / m

    ``form="printed"`` (exactly as printed)::

        W = { (n-1) sum_i m_i (m_i - 1) tau_i + sum_i sum_{j != i} m_i tau_j
              + sum_i [ sum_{j=1}^{i} m_i m_{j-1} tau_{j-1} + sum_{j=1}^{m} (j-1) tau_i ] } / m

    What is wrong in the print: the cross-group term lacks the factor (n-1)
    and the factor m_j (it should be (n-1) sum_i m_i sum_{j != i} m_j tau_j,
    the other groups' packets in each of the first n-1 rounds), and the last
    inner sum runs to m instead of m_i. Both forms reduce to Eq. (4) for one group.

    Assumes: packet round-robin, groups served in the given order and users
    in order within a group, every round the same; waiting = finish - n tau_i.

    Parameters
    ----------
    group_sizes : m_i, users per group (whole numbers >= 1), shape (..., p)
    packet_times : tau_i, packet time of a group-i user (s), shape (..., p);
        the group axis is the last one, leading axes broadcast
    n : packets per object (whole number >= 1), broadcast against the leading axes
    form : ``"corrected"`` or ``"printed"``
    """
    validate.choice("form", form, FORMS)
    sizes, times, m, round_length, prior = _group_terms(group_sizes, packet_times)
    n = validate.positive_integer("n", n)
    if form == "printed":
        first = (sizes * (sizes - 1) * times).sum(axis=-1)
        cross = (sizes * (times.sum(axis=-1, keepdims=True) - times)).sum(axis=-1)
        last = (sizes * prior).sum(axis=-1) + times.sum(axis=-1) * m * (m - 1) / 2
        return ((n - 1) * first + cross + last) / m
    # sum_{j != i} m_j tau_j = D - m_i tau_i
    per_round = (sizes * ((sizes - 1) * times + round_length[..., None] - sizes * times)).sum(axis=-1)
    last = (sizes * prior + times * sizes * (sizes - 1) / 2).sum(axis=-1)
    return ((n - 1) * per_round + last) / m


def mean_turnaround_time_diff(group_sizes, packet_times, n, *, form: str = "corrected") -> np.ndarray:
    """Return the mean turnaround time T^diff of p groups of users with different packet times.

    Paper: 000, Eq. (8), m_0 = tau_0 = 0, m = sum m_i.

    ``form="corrected"`` (default; equals the schedule)::

        T = { m (n-1) sum_i m_i tau_i + sum_i [ m_i sum_{j<i} m_j tau_j + sum_{r=1}^{m_i} r tau_i ] } / m

    ``form="printed"`` (exactly as printed)::

        T = { m (n-1) sum_i m_i tau_i + sum_i [ sum_{j=1}^{i} m_i m_{j-1} tau_{j-1} + sum_{j=1}^{m} j tau_i ] } / m

    What is wrong in the print: the last inner sum runs to m (all users)
    instead of m_i (the users of group i). Reduces to Eq. (6) for one group.

    Assumes: as :func:`mean_waiting_time_diff`; turnaround = finish time.

    Parameters
    ----------
    group_sizes : m_i, users per group (whole numbers >= 1), shape (..., p)
    packet_times : tau_i, packet time of a group-i user (s), shape (..., p)
    n : packets per object (whole number >= 1)
    form : ``"corrected"`` or ``"printed"``
    """
    validate.choice("form", form, FORMS)
    sizes, times, m, round_length, prior = _group_terms(group_sizes, packet_times)
    n = validate.positive_integer("n", n)
    if form == "printed":
        last = (sizes * prior).sum(axis=-1) + times.sum(axis=-1) * m * (m + 1) / 2
    else:
        last = (sizes * prior + times * sizes * (sizes + 1) / 2).sum(axis=-1)
    return (m * (n - 1) * round_length + last) / m
