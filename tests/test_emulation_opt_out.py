"""The real-stack column when it is not run: by the user's choice (emulation "off", ``make ... EMULATION=off``)
or because this machine cannot (a Debian package, root or TUN missing), each said so in the ledger's reasons
and found before any run starts. No testbed is started here."""

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.emulation import ledger_rows, netns
from paperlib.emulation import notebook as emulation_notebook
from paperlib.run_notebook import run

REPO = Path(__file__).resolve().parent.parent
NB004 = REPO / "notebooks" / "004_slow_start_latency.ipynb"


class _NeverRun:
    """A paper module whose points must not be asked for when nothing can run."""

    PAPER = "004"

    @staticmethod
    def points(paper, profile):
        raise AssertionError("points asked for although nothing runs")


@pytest.fixture
def testbed_host(tmp_path, monkeypatch):
    """A machine that has everything the testbed needs (root, TUN, the commands, usrsctp.h), in tmp_path."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    (tmp_path / "tun").touch()
    monkeypatch.setattr(netns, "TUN_DEVICE", str(tmp_path / "tun"))
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "usrsctp.h").touch()
    monkeypatch.setattr(netns, "USRSCTP_HEADER_DIRS", (str(tmp_path / "include"),))
    monkeypatch.setattr(netns.shutil, "which", lambda name: f"/usr/bin/{name}")
    return tmp_path


def test_nothing_missing_on_a_complete_host(testbed_host):
    assert netns.missing_packages() == []


def test_a_missing_usrsctp_header_is_found_up_front_and_names_its_package(testbed_host, tmp_path):
    (testbed_host / "include" / "usrsctp.h").unlink()
    assert netns.missing_packages() == ["libusrsctp-dev"]
    reason = netns.unavailable_reason()
    assert reason == ("the Debian package libusrsctp-dev is not installed "
                      "(apt-get install libusrsctp-dev; make reproduce installs them as root)")
    # the notebook's call says so before asking for a single point (_NeverRun fails if asked), writes nothing
    out = tmp_path / "out"
    out.mkdir()
    emu = emulation_notebook.run(_NeverRun, None, "reduced", out)
    assert emu.not_run == f"{ledger_rows.NOT_RUN_CANNOT}: {reason}"
    assert emulation_notebook.accuracy_table([1e6], out, "reduced") is None
    assert list(out.iterdir()) == []


def test_missing_commands_name_their_packages_in_a_fixed_order(testbed_host, monkeypatch):
    present = {"ip"}
    monkeypatch.setattr(netns.shutil, "which", lambda name: f"/usr/bin/{name}" if name in present else None)
    (testbed_host / "include" / "usrsctp.h").unlink()
    # gcc and tcpdump not on PATH, no header: the order of TESTBED_COMMANDS, then the header
    assert netns.missing_packages() == ["gcc", "tcpdump", "libusrsctp-dev"]
    assert "Debian packages gcc, tcpdump, libusrsctp-dev are not installed" in netns.unavailable_reason()
    assert "apt-get install gcc tcpdump libusrsctp-dev" in netns.unavailable_reason()


def test_root_and_tun_come_before_the_packages(testbed_host, monkeypatch):
    monkeypatch.setattr(netns, "TUN_DEVICE", str(testbed_host / "no-tun"))
    assert netns.unavailable_reason().startswith(f"no {testbed_host / 'no-tun'} on this machine")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "needs root" in netns.unavailable_reason()


def test_off_is_a_choice_even_where_the_testbed_could_not_run(tmp_path, monkeypatch):
    monkeypatch.setattr(netns, "unavailable_reason", lambda: "no /dev/net/tun")
    assert emulation_notebook.run(_NeverRun, None, "off", tmp_path).not_run == ledger_rows.NOT_RUN_BY_CHOICE


def _frame(emulation):
    """Return published experimental cells whose ``emulation`` column is each of ``emulation`` (reasons "x")."""
    return pd.DataFrame({"reason": ["x"] * len(emulation), "rel_error": [""] * len(emulation),
                         "column": ["Exp(TCP)"] * len(emulation), "emulation": emulation,
                         "status": ["not_regenerable"] * len(emulation)})


def test_claims_not_run_marks_only_the_real_stack_claims():
    rows = [ledger.claim_row("004", "Abstract", "within 4%", "4", 4.9, "refuted", "model vs print",
                             claim_id="c", evidence="printed"),
            ledger_rows.judged_claim("004", "Abstract", "within 4%", "4", None, "untestable", "no emulated cell",
                                     claim_id="c")]
    assert ledger_rows.claims_not_run(rows, None) == rows  # the runs happened: nothing to say
    model, real = ledger_rows.claims_not_run(rows, ledger_rows.NOT_RUN_BY_CHOICE)
    assert model == rows[0] and real.status == "untestable"
    assert real.reason == (f"{ledger_rows.NOT_RUN} the real-stack column was not run, by choice (EMULATION=off); "
                           f"{ledger_rows.MARK} no emulated cell")


def test_summary_line_counts_run_cells_without_the_claims():
    # two Exp cells emulated (one close, its whole interval within 5% of the print; one 2% off at its mean but
    # undecided, its interval reaching across 5%) and one claim re-judged: 2 cells emulated, 1 within 5% (by the
    # status, not the mean's rel_error); the papers named are those of the cells (002, 004), not of the claim
    frame = pd.DataFrame({"reason": ["x"] * 3, "rel_error": ["0.01", "0.02", ""],
                          "column": ["Exp(TCP)", "Exp(SCTP)", ledger_rows.REAL_STACKS], "emulation": ["ran"] * 3,
                          "paper": ["002", "004", "005"],
                          "status": ["measured_close", "measured_inconclusive", "supported"]})
    assert ledger_rows.summary_line(frame) == (
        "1 of 2 published experimental cells within 5% of the real stacks "
        "(papers 002, 004; 2 cells emulated, the rest not run in this grid).")


def test_summary_line_says_by_choice_or_cannot():
    # the claims re-judged on real stacks carry the reason too, and are not counted as cells
    choice = pd.concat([_frame(["not run by choice"] * 3),
                        pd.DataFrame({"reason": ["x"], "rel_error": [""], "column": [ledger_rows.REAL_STACKS],
                                      "emulation": ["not run by choice"]})])
    assert ledger_rows.summary_line(choice) == ("0 of 3 published experimental cells within 5% of the real stacks: "
                                                "the real-stack column was not run, by choice (EMULATION=off).")
    cannot = _frame(["machine cannot"] * 2)
    assert ledger_rows.summary_line(cannot) == ("0 of 2 published experimental cells within 5% of the real stacks: "
                                                "the real-stack column was not run because this machine cannot run it "
                                                "(the rows' reasons say why).")
    assert "by choice" not in ledger_rows.summary_line(cannot)


@pytest.mark.notebook
def test_notebook_with_emulation_off_completes_and_its_ledger_says_by_choice(tmp_path):
    # The 004 notebook on the small grid of tests/test_notebooks.py, emulation "off" as make passes it
    # (-p emulation '"off"'): it completes, writes no runs table, and every published experimental cell
    # (Table II's 10 Exp(TCP)/Exp(SCTP) cells, tests/test_reproduce_p004_ledger_rows.py) and both claims
    # re-judged on real stacks say not run, by choice; their status is what it is without the real stacks.
    out = tmp_path / "fig"
    run(NB004, tmp_path / "executed.ipynb", {"rates_bps": [1e5, 1e6, 1e7], "initial_windows": [1, 2, 4],
                                              "emulation": "off", "output_dir": str(out)})
    frame = ledger.read(out / "ledger.csv")
    not_run = frame[frame["reason"].str.startswith(ledger_rows.NOT_RUN)]
    real = not_run["column"] == ledger_rows.REAL_STACKS
    cells, claims = not_run[~real], not_run[real]
    assert len(cells) == 10 and set(cells["status"]) == {"not_regenerable"}
    assert len(claims) == 2 and set(claims["status"]) == {"untestable"}
    assert len(frame[frame["column"] == ledger_rows.REAL_STACKS]) == 2  # no real-stack claim without the reason
    assert all(r.startswith(f"{ledger_rows.NOT_RUN} {ledger_rows.NOT_RUN_BY_CHOICE}; ") for r in not_run["reason"])
    assert not frame["reason"].str.contains(ledger_rows.NOT_RUN_CANNOT, regex=False).any()
    assert not (out / "emulation_runs.csv").exists() and not (out / "emulator_accuracy.csv").exists()
    assert ledger_rows.summary_line(frame).endswith("the real-stack column was not run, by choice (EMULATION=off).")
    executed = json.loads((tmp_path / "executed.ipynb").read_text())
    printed = "".join("".join(o.get("text", "")) for c in executed["cells"] for o in c.get("outputs", []))
    assert ledger_rows.NOT_RUN_BY_CHOICE in printed


def test_verdicts_table_shows_why_nothing_ran_in_its_emulation_column_and_its_reason():
    claim = ledger_rows.judged_claim("004", "Abstract", "within 4%", "4", None, "untestable",
                                     "no emulated Table II cell", claim_id="c")
    rows = ledger_rows.claims_not_run([claim], ledger_rows.NOT_RUN_BY_CHOICE)
    table = emulation_notebook.verdicts(rows)
    assert table["emulation"].tolist() == [rows[0].emulation] and rows[0].emulation != "ran"
    assert table["measure"].tolist() == [rows[0].reason]
    assert "the real-stack column was not run, by choice (EMULATION=off); " in table["measure"][0]


def test_a_row_not_run_says_why_in_its_emulation_column():
    old = ledger_rows.judged_claim("004", "Abstract", "within 4%", "4", None, "untestable", "no emulated cell",
                                   claim_id="within_4_percent")
    assert (old.evidence, old.emulation) == ("real stacks", "ran")
    choice = ledger_rows.not_run_row(old, ledger_rows.NOT_RUN_BY_CHOICE)
    cannot = ledger_rows.not_run_row(old, f"{ledger_rows.NOT_RUN_CANNOT}: no /dev/net/tun")
    grid = ledger_rows.not_run_row(old, ledger_rows.protocol_not_run("sctp"))
    assert (choice.emulation, cannot.emulation, grid.emulation) == ("not run by choice", "machine cannot", "not run")
    # a claim that did not run rests on nothing; its id stays
    assert {choice.evidence, cannot.evidence, grid.evidence} == {"none"} and choice.claim_id == "within_4_percent"


def test_the_summary_command_writes_the_summary_from_the_ledger_alone(tmp_path):
    rows = [ledger.result_row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", None, rule="half_up",
                              not_regenerable=True, reason="testbed")]
    rows = [ledger_rows.not_run_row(rows[0], ledger_rows.NOT_RUN_BY_CHOICE)]
    path, summary = tmp_path / "ledger.csv", tmp_path / "ledger-summary.md"
    from paperlib.provenance import Stamp

    ledger.write_partial(rows, Stamp(notebook="nb"), path)
    summary.write_text("a stale summary\n", encoding="utf-8")
    assert ledger_rows.main(["summary", str(path), str(summary)]) == 0
    first = summary.read_text(encoding="utf-8")
    # written again from the ledger, not edited: the stale text is gone, and a second run gives the same file
    assert first.startswith("# Reproduction ledger summary") and "stale" not in first
    assert first.endswith("0 of 1 published experimental cells within 5% of the real stacks: the real-stack column "
                          "was not run, by choice (EMULATION=off).\n")
    assert ledger_rows.main(["summary", str(path), str(summary)]) == 0
    assert summary.read_text(encoding="utf-8") == first
