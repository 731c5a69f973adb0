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
