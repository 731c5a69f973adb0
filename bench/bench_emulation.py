"""The link emulator: the highest rate at which it stays within 2% of the configured rate and 1 ms of the delay.

Run with `make bench` (needs root, TUN and network namespaces; says so and exits 0 otherwise).
Rates are tried in ascending order, the papers' rates (4 Kbps .. 10 Mbps) first, then 20 Mbps to
500 Mbps; the search stops at the first inaccurate rate. Each rate: a back-to-back train of about
one second (delivered rate by dispersion) and sparse probes (added one-way delay), 10 ms delay.
"""

from __future__ import annotations

from paperlib.emulation import accuracy, netns


def main(argv: list[str] | None = None) -> int:
    """Print the emulator's accuracy per rate and its highest accurate rate; return 0 (also when skipped)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", metavar="BIT_PER_S",
                        default=accuracy.PAPER_RATES_BPS + accuracy.HIGH_RATES_BPS,
                        help="the rates to try, in bit/s (default the papers' rates, then 20 Mbit/s to 500 Mbit/s)")
    args = parser.parse_args(argv)
    reason = netns.unavailable_reason()
    if reason:
        print(f"bench_emulation: skipped, {reason}")
        return 0
    best, table = accuracy.highest_accurate_rate_bps(args.rates)
    cols = ["rate_bps", "arrived", "train_packets", "measured_rate_bps", "rate_error", "added_delay_s",
            "delay_error_s", "accurate"]
    print(table[cols].to_string(index=False, float_format=lambda v: f"{v:.6g}"))
    if best is None:
        print("emulator: not accurate even at the lowest rate tried")
    else:
        print(f"emulator: highest accurate rate {best / 1e6:g} Mbit/s (within {accuracy.RATE_TOL:.0%} of rate and "
              f"{accuracy.DELAY_TOL_S * 1e3:g} ms of delay at every rate up to it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
