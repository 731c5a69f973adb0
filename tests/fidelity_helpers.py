"""A made-up fidelity record for tests of what reads one (the rule, the ledger rows), with no run behind it."""

from paperlib.emulation import fidelity


def record(p99_ns: int, wait_s: float) -> dict:
    """Return a 20 s run's record: emulator lateness p99 ``p99_ns`` in both directions, the client's run-queue wait
    ``wait_s`` over 1 CPU s, no load figures."""
    late = {"n": 1000, "median_ns": p99_ns // 2, "p99_ns": p99_ns, "max_ns": p99_ns, "overflow": 0}
    cpu = {"client": fidelity.RoleCpu("client", 1.0, wait_s, 1, 0)}
    return fidelity.make_record({"lateness": late, "ab": {"lateness": late}, "ba": {"lateness": late}}, cpu,
                                wall_s=20.0, pressure_start_s=None, pressure_end_s=None, load_start=None,
                                load_end=None).to_dict()


#: A crossing of the link may arrive this share of a round trip after its propagation before a test stops reading
#: the run's wire count as the protocol's: the fidelity rule's emulator allowance (docs/fidelity.md).
CROSSING_ALLOWANCE_RTT = fidelity.RULE.lateness_p99_rtt_fraction


def wire_late(wire: dict, rtt_s: float, prefixes: tuple[str, ...] = ("", "ttfb_")) -> str | None:
    """Return why a run's wire count is not the protocol's alone, else None: the path's crossings
    (:func:`paperlib.emulation.capture.wire_handshake`, and :func:`~paperlib.emulation.capture.wire_ttfb` under
    the ``ttfb_`` prefix) took longer than their propagation (``crossings`` x ``rtt_s`` / 2) by more than
    :data:`CROSSING_ALLOWANCE_RTT` of a round trip each: the emulator or the kernel delivered late, and a late
    delivery counts in ``protocol_rtts`` as if it were the link's.

    Worked example: 4 crossings at RTT 40 ms propagate in 80 ms; the allowance is 4 x 0.8 ms = 3.2 ms, so a
    propagation_s of 84 ms (4 ms late, 0.1 of a round trip) is late."""
    for prefix in prefixes:
        if f"{prefix}crossings" not in wire:
            continue
        crossings = wire[f"{prefix}crossings"]
        late_s = wire[f"{prefix}propagation_s"] - crossings * rtt_s / 2
        if late_s > crossings * CROSSING_ALLOWANCE_RTT * rtt_s:
            return (f"{prefix or 'handshake '}crossings ({crossings}) arrived {late_s * 1e3:.2f} ms after their "
                    f"propagation, more than {CROSSING_ALLOWANCE_RTT:g} of the {rtt_s * 1e3:g} ms RTT each")
    return None


def on_time(run, rtt_s: float, tries: int = 3):
    """Return ``run()``'s first result whose wire count is on time (:func:`wire_late` of its ``"wire"`` dict, and a
    ``fidelity_kept`` it carries), running it at most ``tries`` times; skip the test, with each try's reason, if
    none was: the machine did not keep the timing a wire count needs, which says nothing of the protocol."""
    import pytest

    reasons = []
    for _ in range(tries):
        result = run()
        why = wire_late(result["wire"], rtt_s)
        if why is None and result.get("fidelity_kept") is False:
            why = "the run broke the fidelity rule: " + "; ".join(result.get("fidelity_broken", []))
        if why is None:
            return result
        reasons.append(why)
    pytest.skip(f"no run of {tries} kept the timing a wire count needs: " + " | ".join(reasons))
