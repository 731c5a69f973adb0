import pandas as pd
import pytest

from paperlib import ledger
from paperlib.provenance import Stamp
from paperlib.rounding import matches_printed, printed_decimals, round_to


def test_printed_precision():
    assert printed_decimals("14.68") == 2
    assert printed_decimals("2770") == 0
    assert printed_decimals("-125.0857") == 4


def test_rounding_rules():
    assert round_to(14.6857, 2, "half_up") == 14.69
    assert round_to(14.6857, 2, "truncate") == 14.68
    # 1.1 is 1.100000000000000088... in binary; truncation must still print 1.10, not 1.09
    assert round_to(1.1, 2, "truncate") == 1.1
    assert round_to(0.125, 2, "half_up") == 0.13
    with pytest.raises(ValueError, match="rounding rule"):
        round_to(1.0, 2, "bankers")


def test_classify_at_published_precision():
    assert ledger.classify(14.6857, "14.68", "truncate") == "reproduced"
    assert ledger.classify(14.6857, "14.68", "half_up") == "close"  # 14.69 != 14.68, 0.04% off
    assert ledger.classify(1.01, "0.84", "half_up") == "differs"  # 20% off
    assert ledger.classify(0.88, "0.84", "half_up") == "close"  # 4.8% off
    assert matches_printed(7.70, "7.70")


def test_result_row_statuses_and_reason_rule():
    row = ledger.result_row("004", "Table II", "28 Kbps", "Model(SCTP)", "14.68", 14.6857, rule="truncate")
    assert (row.status, row.regenerated, row.rel_error) == ("reproduced", "14.6857", "0.0004")
    with pytest.raises(ledger.LedgerError, match="needs a reason"):
        ledger.result_row("004", "Table II", "10 Mbps", "Model(SCTP)", "0.84", 1.01, rule="truncate")
    nr = ledger.result_row("004", "Table II", "1 Mbps", "Exp(SCTP)", "1.14", None, rule="truncate",
                           reason="testbed", not_regenerable=True)
    assert (nr.status, nr.regenerated, nr.rel_error) == ("not_regenerable", "", "")
    with pytest.raises(ledger.LedgerError, match="must be not_regenerable"):
        ledger.result_row("004", "Table II", "1 Mbps", "Exp(SCTP)", "1.14", None, rule="truncate", reason="x")


def test_bad_paper_and_status_are_rejected():
    with pytest.raises(ledger.LedgerError, match="paper must be one of"):
        ledger.Row("5", "T", "r", "c", "1", "1", "0", "reproduced", "")
    with pytest.raises(ledger.LedgerError, match="status must be one of"):
        ledger.Row("004", "T", "r", "c", "1", "1", "0", "approximately", "why")
    with pytest.raises(ledger.LedgerError, match="claim status"):
        ledger.claim_row("004", "Abstract", "c", "4", 4.0, "reproduced", "why")


def _rows():
    return [
        ledger.result_row("004", "Table II", "28 Kbps", "Model(SCTP)", "14.68", 14.6857, rule="truncate"),
        ledger.claim_row("004", "Abstract", "within 4%", "4", 4.89, "refuted", "mean |M-E|/E = 4.89%"),
    ]


def test_partial_ledger_round_trip_merge_and_summary(tmp_path):
    stamp = Stamp(notebook="nb.ipynb", parameters={"rtt_s": 0.2}, seed=7)
    ledger.write_partial(_rows(), stamp, tmp_path / "004" / "ledger.csv")
    frame = ledger.read(tmp_path / "004" / "ledger.csv")
    assert list(frame.columns) == list(ledger.ALL_COLUMNS)
    assert frame.loc[0, "parameters"] == '{"rtt_s":0.2}'
    assert frame.loc[0, "seed"] == "7"
    assert frame.loc[1, "rel_error"] == "0.2225"  # (4.89 - 4) / 4
    merged = ledger.merge([tmp_path / "004" / "ledger.csv"])
    text = ledger.summary(merged)
    assert "| 004 | 1 | 1 | 2 |" in text  # reproduced, refuted, total
    assert "No ledger rows yet for paper(s) 000, 001, 002, 003." in text


def test_duplicate_rows_are_rejected(tmp_path):
    rows = _rows()
    with pytest.raises(ledger.LedgerError, match="duplicate ledger row"):
        ledger.write_partial(rows + rows[:1], Stamp(notebook="nb"), tmp_path / "l.csv")


def test_reading_a_ledger_with_an_unknown_status_fails(tmp_path):
    path = tmp_path / "l.csv"
    ledger.write_partial(_rows(), Stamp(notebook="nb"), path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[1, "status"] = "kinda"
    frame.to_csv(path, index=False)
    with pytest.raises(ledger.LedgerError, match="row 2: unknown status 'kinda'"):
        ledger.read(path)


def test_writing_twice_is_byte_identical(tmp_path):
    stamp = Stamp(notebook="nb.ipynb", parameters={"a": [1, 2]})
    ledger.write_partial(_rows(), stamp, tmp_path / "a.csv")
    ledger.write_partial(_rows(), stamp, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
