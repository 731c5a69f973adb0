"""The closing summary of make reproduce (issue 23): time per paper, ledger rows by status, where the outputs are."""

import json

from paperlib.run_summary import counts_text, paper_rows, status_counts, summary


def _record(times, paper, seconds, ok=True, run_id="this"):
    times.mkdir(parents=True, exist_ok=True)
    (times / f"{paper}.json").write_text(json.dumps(
        {"paper": paper, "command": ["x"], "seconds": seconds, "ok": ok, "started": 0.0, "run_id": run_id,
         "last_ok_seconds": seconds if ok else None}))


def _ledger(path, statuses, papers=None):
    papers = papers or ["000"] * len(statuses)
    lines = "".join(f"{p},t,r{i},c,1,1,,{s},why\n" for i, (p, s) in enumerate(zip(papers, statuses, strict=True)))
    path.write_text("paper,source,row,column,published,regenerated,rel_error,status,reason\n" + lines)
    return path


def test_papers_run_now_have_their_time_the_others_are_up_to_date(tmp_path):
    times = tmp_path / "times"
    _record(times, "000", 65.0)
    _record(times, "001", 900.0, run_id="an earlier make")  # ran before: this invocation found it up to date
    _record(times, "001-sensitivity", 30.0)  # not a paper of the list, run by this invocation: shown too
    _record(times, "002", 5.0, ok=False)
    rows = paper_rows(["000", "001", "002", "003"], "this", times)
    assert rows == [("000", "done", "1 min 05 s", "figures/logs/000.log"),
                    ("001", "up to date", "-", "figures/logs/001.log"),
                    ("001-sensitivity", "done", "30 s", "figures/logs/001-sensitivity.log"),
                    ("002", "FAILED", "5 s", "figures/logs/002.log"),
                    ("003", "up to date", "-", "figures/logs/003.log")]


def test_ledger_rows_are_counted_by_paper_and_status_in_the_ledgers_order(tmp_path):
    ledger = _ledger(tmp_path / "ledger.csv", ["differs", "reproduced", "supported", "reproduced"],
                     ["000", "000", "001", "001"])
    counts = status_counts(ledger)
    # paperlib.ledger.STATUSES lists reproduced before differs, and claims after results
    assert list(counts["all"].items()) == [("reproduced", 2), ("differs", 1), ("supported", 1)]
    assert list(counts["000"].items()) == [("reproduced", 1), ("differs", 1)]
    assert list(counts["001"].items()) == [("reproduced", 1), ("supported", 1)]
    assert counts_text(counts["all"]) == "4: 2 reproduced, 1 differs, 1 supported"
    assert counts_text(None) == "-"
    assert status_counts(tmp_path / "none.csv") is None


def test_summary_text(tmp_path):
    times = tmp_path / "times"
    _record(times, "000", 65.0)
    text = summary(["000", "001"], "this", _ledger(tmp_path / "ledger.csv", ["reproduced", "close"]),
                   since=1000.0, times_dir=times, now=1000.0 + 125)
    lines = text.splitlines()
    assert lines[1] == "make reproduce finished in 2 min 05 s: 1 notebook run(s), 1 up to date"
    assert lines[2].split() == ["paper", "outcome", "time", "ledger", "rows", "by", "status"]
    assert lines[3].split() == ["000", "done", "1", "min", "05", "s", "2:", "1", "reproduced,", "1", "close"]
    assert lines[4].split() == ["001", "up", "to", "date", "-", "-"]  # no rows of 001 in the ledger
    assert f"ledger: {tmp_path / 'ledger.csv'}, 2 rows: 1 reproduced, 1 close" in lines
    assert any(line.strip().startswith("figures/logs/<paper>.log") for line in lines)


def test_summary_names_the_failed_papers(tmp_path):
    times = tmp_path / "times"
    _record(times, "004", 12.0, ok=False)
    text = summary(["004"], "this", tmp_path / "missing.csv", times_dir=times)
    assert "make reproduce FAILED: 1 notebook run(s), 0 up to date; failed: 004" in text
    assert f"ledger: {tmp_path / 'missing.csv'} was not written" in text


def test_measured_cells_are_counted_between_the_scored_and_the_not_regenerable_ones(tmp_path):
    statuses = ["not_regenerable", "measured_differs", "reproduced", "measured_close", "measured_close",
                "lone_hit", "measured_inconclusive"]
    counts = status_counts(_ledger(tmp_path / "ledger.csv", statuses))
    # paperlib.ledger.STATUSES: the scored results, the measured ones (close, inconclusive, differs), then
    # the cells no run produced
    assert counts_text(counts["all"]) == ("7: 1 reproduced, 1 lone_hit, 2 measured_close, 1 measured_inconclusive, "
                                          "1 measured_differs, 1 not_regenerable")
