"""Paper 002's ledger rows: every printed cell of Tables II-III and every claim, with bounds and lone hits."""

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.models.lower_bounds import BoundViolation
from paperlib.reproduce.p002 import emulated, findings, ledger_rows, operating_point


@pytest.fixture(scope="module")
def search(paper):
    # only the combinations with IT = 2 RTT and a = ceil(Np), among which chosen_convention chooses (256 of 1536;
    # a combination's scores do not depend on the others, so the ledger rows are the same as with all of them)
    return operating_point._search(paper, {**operating_point.CONVENTION_AXES, "it_rtts": [2], "a_mode": ["ceil"]})


def test_ledger_rows_cover_every_printed_cell_and_claim(paper, search):
    rows = ledger_rows.ledger_rows(paper, search=search)
    table_rows = [r for r in rows if r.source in ("Table II", "Table III")]
    assert len(table_rows) == 2 * 4 * 4
    printed = sorted(r.published for r in table_rows)
    expected = sorted(
        v for t in ("table2", "table3") for _, row in paper.tables[t].cells.iterrows() for v in list(row)[1:]
    )
    assert printed == expected
    assert {r.status for r in table_rows if "Experimental" in r.column} == {"not_regenerable"}
    assert len(rows) - len(table_rows) == len(paper.claims.cells)
    # without real stacks no row is in the real-stack column
    assert not [r for r in rows if r.column == emulated_rows.REAL_STACKS]
    # no regenerated time is below its loss-free bound (ledger_rows raises BoundViolation), no print either
    assert not any("impossible as printed" in r.reason for r in rows)


def test_twenty_percent_claim_is_refuted(paper, search):
    rows = ledger_rows.ledger_rows(paper, search=search)
    claim = next(r for r in rows if "20% on average" in r.row)
    # mean (TCP - SCTP)/TCP over the 16 printed pairs is a few percent, nowhere near 20
    assert float(claim.regenerated) < 5 and claim.status == "refuted"


def test_model_cells_name_the_convention_and_its_scores(paper, search):
    rows = ledger_rows.ledger_rows(paper, search=search)
    row = next(r for r in rows if r.row == "p = 1%" and r.column == "TCP (Model) (Sec)")
    assert "p002.operating_point.chosen_convention" in row.reason and "kilo=1024" in row.reason
    # 21.168 s against the printed 21.33: |rel. error| 0.76% <= 5%, close
    assert row.status == "close" and "the model gives 21.168 s against the printed 21.33 s" in row.reason
    # the shared point's cells say what the other table prints there
    assert "printed as 21.33 in Table II and 18.73 in Table III" in row.reason


def test_lone_hit_rule_on_the_old_it_zero_reading(paper):
    # The reading the ledger used before (IT = 0): its SCTP model is flat in p over 0.4-2 % (a = 1 at each),
    # 5 x (RTT + OT - HOB) = 20.768 s, truncated 20.76 = the print at p = 0.4 % only; 1 % and 2 % print 20.81 and
    # 21.26 where the model stays at 20.768. That cell is a lone hit, not a reproduction.
    old = operating_point.Convention(kilo=1000, log_mode="continuous", sctp_total="times_M", pipeline_depth=1,
                                     it_rtts=0, final_chunk="x+1", a_mode="ceil", n_mode="ceil",
                                     post_loss_slow_start=False, rounding="truncate")
    points = operating_point.operating_points(paper)
    r = operating_point.regenerate(points, old)
    sctp = r["sctp_s"].to_numpy()[:4]
    assert sctp[:3] == pytest.approx([20.768] * 3)
    printed = list(paper.tables["table2"].cells.set_index("Protocol").loc["SCTP (Model) (Sec)"])
    found = ledger.lone_hits(sctp, printed, "truncate", ["0.4 %", "1%", "2 %", "5 %"])
    assert found[0].startswith("lone hit") and "only one of the 4" in found[0] and "same at 1%" in found[0]
    assert found[1:] == ["", "", ""]
    row = ledger.result_row("002", "Table II", "p = 0.4 %", "SCTP (Model) (Sec)", printed[0], float(sctp[0]),
                            rule="truncate", reason="x", lone_hit=found[0], evidence="model")
    assert row.status == "lone_hit"
    # lone_hit_notes finds the same note for that cell, and none for the TCP row or Table III
    notes = ledger_rows.lone_hit_notes(paper, points, r, "truncate")
    assert notes[(0, "SCTP (Model) (Sec)")] == found[0]
    assert [notes[(i, "SCTP (Model) (Sec)")] for i in (1, 2, 3)] == ["", "", ""]
    assert len(notes) == 8 * 2  # 8 columns x 2 model rows


def test_a_print_below_its_bound_is_flagged_first(paper, search, monkeypatch):
    # with a bound of 15 s at RTT 0.055 s the printed 14.89 s (at most 14.90 before rounding) is impossible by 0.11 s
    real = findings.response_bounds

    def raised(p):
        frame = real(p)
        frame.loc[frame["column"] == "0.055", "bound_s"] = 15.0
        return frame

    monkeypatch.setattr(findings, "response_bounds", raised)
    rows = ledger_rows.ledger_rows(paper, search=search)
    row = next(r for r in rows if r.row == "RTT (s) = 0.055" and r.column == "TCP (Model) (Sec)")
    assert row.reason.startswith("impossible as printed: 0.110 s below the loss-free bound 15.000 s")
    assert row.status == "differs"  # the status still follows the rules (16.50 s against 14.89 s)
    assert sum(r.reason.startswith("impossible as printed") for r in rows) == 4  # the four cells of that column


def test_tcp_experiment_row_carries_the_ns3_mean_or_says_it_did_not_run(paper):
    pt = operating_point.operating_points(paper)[4]  # RTT 0.055 s
    row = ledger_rows.tcp_experiment_row(pt, "TCP (Experimental) (Sec)", "13.82", None, "half_up", "")
    assert row.regenerated == "" and "was not run in this build" in row.reason and row.status == "not_regenerable"
    sim = pd.Series({"mean_s": 14.5, "ci95_s": 0.25, "finished": 3})
    row = ledger_rows.tcp_experiment_row(pt, "TCP (Experimental) (Sec)", "13.82", sim, "half_up", "")
    # rel. error (14.5 - 13.82)/13.82 = 0.0492
    assert float(row.regenerated) == 14.5 and row.rel_error == "0.0492"
    assert "mean of 3 seeded runs, 95% CI +/- 0.25 s" in row.reason
    # the simulated transfer's bound: 2 RTT + 5 x 108 000 bit / 40 kbit/s = 0.11 + 13.5 = 13.61 s; 13 s is below
    too_fast = pd.Series({"mean_s": 13.0, "ci95_s": 0.25, "finished": 3})
    with pytest.raises(BoundViolation, match="ns-3 mean response time at RTT"):
        ledger_rows.tcp_experiment_row(pt, "TCP (Experimental) (Sec)", "13.82", too_fast, "half_up", "")


def test_a_regenerated_time_below_its_bound_is_an_error(paper, search, monkeypatch):
    # a bound of 100 s at every column is above every regenerated time (at most 43.9 s at RTT 1 s)
    real = findings.response_bounds
    monkeypatch.setattr(findings, "response_bounds", lambda p: real(p).assign(bound_s=100.0))
    with pytest.raises(BoundViolation, match="regenerated TCP response time"):
        ledger_rows.ledger_rows(paper, search=search)


# --- with the real stacks: a hand-built Emulated (no emulation runs here) ------------------------------------


def _printed(paper, pt, proto):
    """The printed experimental cell of ``proto`` at the column ``pt`` (s)."""
    return float(paper.tables[pt.table].cells.set_index("Protocol").loc[f"{proto.upper()} (Experimental) (Sec)",
                                                                        pt.column])


def _real_stacks(paper, response_of):
    """An Emulated with 3 runs per distinct printed point and stack: ``response_of(pt, proto)`` - 0.1, +0, +0.1 s.

    The shared point (p = 1 %, RTT 0.256 s) runs once, at Table II's column (the first that prints it).
    """
    points, runs, seen = [], [], set()
    for pt in operating_point.operating_points(paper):
        if (pt.rtt_s, pt.p) in seen:
            continue
        seen.add((pt.rtt_s, pt.p))
        for proto in ("tcp", "sctp"):
            for rep, step in enumerate((-0.1, 0.0, 0.1)):
                where = {"protocol": proto, "rate_bps": pt.rate_bps, "rtt_s": pt.rtt_s, "loss": pt.p, "rep": rep}
                points.append({**where, "paper": "002", "queue_packets": 100, "mss_bytes": 536, "initcwnd": 1,
                               "object_bytes": 13_824, "objects": 5, "users": 1, "mode": "pipelined"})
                runs.append({**where, "t_start": [0.0], "t_done": [response_of(pt, proto) + step]})
    return Emulated("reduced", points, pd.DataFrame(runs))


def _experimental(rows):
    return [r for r in rows if "Experimental" in r.column]


@pytest.mark.skipif("sctp" not in experiments.protocols(), reason="the SCTP application is not built here")
def test_measured_cells_are_scored_and_name_the_stack_measured(paper, search):
    # TCP at the printed value +/- 0.1 s: mean = the print, 95% half-width t(0.975, 2) x 0.1 / sqrt(3)
    # = 4.303 x 0.0577 = 0.248 s, within 5% of every print (13.82 x 0.05 = 0.69 s the smallest): close; SCTP at
    # twice the print: the whole interval 100% above, differs
    real_stacks = _real_stacks(paper, lambda pt, proto: _printed(paper, pt, proto) * (1 if proto == "tcp" else 2))
    rows = ledger_rows.ledger_rows(paper, search=search, real_stacks=real_stacks)
    exp = _experimental(rows)
    assert len(exp) == 16 and all(r.reason.startswith(emulated_rows.MARK) for r in exp)
    tcp = [r for r in exp if r.column.startswith("TCP") and r.row != "RTT (s) = 0.256"]  # 0.256: Table II's run
    assert {r.status for r in tcp} == {"measured_close"}
    sctp = [r for r in exp if r.column.startswith("SCTP")]
    assert {r.status for r in sctp} == {"measured_differs"}
    # the reason names the stack measured: usrsctp for the SCTP cells, Linux TCP for the TCP cells
    assert all("usrsctp over UDP" in r.reason and "Linux TCP" not in r.reason.split("; before:")[0] for r in sctp)
    assert all("Linux TCP" in r.reason and "usrsctp" not in r.reason.split("; before:")[0] for r in tcp)
    # the three claims judged on the real stacks come last: SCTP twice TCP refutes "20% faster" and "better";
    # Table III's response time rises with RTT for both stacks (the prints rise from 0.055 to 1.0 s)
    last = rows[-3:]
    assert {r.column for r in last} == {emulated_rows.REAL_STACKS}
    assert [r.status for r in last] == ["refuted", "refuted", "supported"]
    assert all(r.reason.startswith(emulated_rows.MARK) for r in last)


def test_ledger_rows_when_the_real_stacks_did_not_run(paper, search):
    not_run = Emulated("off", not_run="off here")
    rows = ledger_rows.ledger_rows(paper, search=search, real_stacks=not_run)
    exp = _experimental(rows)
    assert len(exp) == 16 and all(r.reason.startswith(emulated_rows.NOT_RUN + " off here") for r in exp)
    assert {r.status for r in exp} == {"not_regenerable"}
    # the three claims judged on real stacks come last, untestable, saying why nothing ran
    last = rows[-3:]
    claims = paper.claims.cells.set_index("id")
    ids = ["sctp_less_20pct", "sctp_better_than_tcp", "response_increases_rtt"]
    assert [r.row for r in last] == [claims.loc[i, "claim"] for i in ids]
    assert {r.column for r in last} == {emulated_rows.REAL_STACKS} and {r.status for r in last} == {"untestable"}
    assert all(r.reason.startswith(emulated_rows.NOT_RUN + " off here") for r in last)
    # each claim's source as claims.csv gives it, run or not (the row's key does not depend on whether it ran)
    assert [r.source for r in last] == ["Abstract", "Abstract; Section IV (Conclusions)",
                                        "Section III.B (Results Analysis), paragraph 2"]
    # every other row is the ledger without real stacks, in the same order
    alone = ledger_rows.ledger_rows(paper, search=search)
    assert [r for r in rows[:-3] if r not in exp] == [r for r in alone if "Experimental" not in r.column]


@pytest.mark.skipif("sctp" not in experiments.protocols(), reason="the SCTP application is not built here")
def test_a_measured_cell_says_its_replications_and_the_rule_behind_them(paper, search):
    from dataclasses import replace

    from paperlib.emulation import notebook as emulation_notebook

    real_stacks = _real_stacks(paper, lambda pt, proto: _printed(paper, pt, proto))
    # the plans the shared run makes from these runs (3 per cell, 0.1 s apart: sd 0.1 s, far below 5% of any print)
    plans = emulation_notebook.measured_plans(emulated.measured_cells(paper, real_stacks.runs))
    rows = ledger_rows.ledger_rows(paper, search=search, real_stacks=replace(real_stacks, plans=plans))
    (tcp2,) = [r for r in _experimental(rows) if r.row == "p = 2 %" and r.column.startswith("TCP")]
    assert ("replications by the rule (docs/ledger.md): a pilot of 3 kept runs, then 20 replications in all, fixed "
            "beforehand; power 80% at a 5% difference from the print 0.95 needs 5 at the pilot's spread 0.1"
            ) in tcp2.reason
    # without plans (a run made before the rule, or by hand) the reason says nothing of one
    unplanned = [r for r in _experimental(ledger_rows.ledger_rows(paper, search=search, real_stacks=real_stacks))]
    assert not any("replications by the rule" in r.reason for r in unplanned)
