"""Tests of paperlib/verdicts.py: verdicts computed from the ledger, the README's results block checked against it.

The ledger used here is regenerated in-process: paper 004's model rows (Table II, Fig. 1's alpha, the claims on
the published table), deterministic and quick. The README's 004 numbers are checked against them.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger, verdicts
from paperlib.data import load_paper
from paperlib.reproduce.p004 import ledger_rows

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture(scope="module")
def ledger_004() -> pd.DataFrame:
    """Return paper 004's model ledger rows as a ledger table (provenance columns empty)."""
    frame = pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(load_paper("004"))])
    for column in ledger.PROVENANCE_COLUMNS:
        frame[column] = ""
    return frame[list(ledger.ALL_COLUMNS)]


def readme_with(table: str) -> str:
    """Return a small README whose results block holds ``table``."""
    return f"# title\n\nintro\n\n{verdicts.BEGIN}\n{table}{verdicts.END}\n\nmore text\n"


def test_004_verdict_numbers_come_from_the_ledger(ledger_004):
    (v,) = verdicts.paper_verdicts(ledger_004)
    assert v.paper == "004"
    # Table II has 10 model cells (5 rates x Model(SCTP), Model(TCP)); the chosen convention misses the
    # 10 Mbps row (printed 0.84 and 1.24 s), so 8 of 10 reproduce.
    assert v.reproduces.startswith("8 of 10 model cells of Table II")
    assert "the 10 Mbps row (printed 0.84 / 1.24 s" in v.does_not
    # "within 4%": mean |M-E|/E over the 10 printed pairs is 4.89% (the claim row's regenerated value).
    assert "4.89%" in v.does_not
    assert "floor" in v.headline and "ceiling" in v.headline


def test_a_changed_ledger_changes_the_verdict(ledger_004):
    # Turn the 10 Mbps Model(SCTP) cell into a reproduction: the count must follow (9 of 10).
    frame = ledger_004.copy()
    hit = (frame["row"] == "10 Mbps") & (frame["column"] == "Model(SCTP)")
    frame.loc[hit, "status"] = "reproduced"
    (v,) = verdicts.paper_verdicts(frame)
    assert v.reproduces.startswith("9 of 10 model cells")
    assert "printed 1.24 s" in v.does_not


def test_write_then_check_round_trip(ledger_004):
    table = verdicts.results_table(verdicts.paper_verdicts(ledger_004))
    text = verdicts.with_results(readme_with("old table\n"), table)
    assert "old table" not in text and text.startswith("# title") and text.endswith("more text\n")
    assert verdicts.check_readme(text, ledger_004) == []
    # Writing twice gives the same text.
    assert verdicts.with_results(text, table) == text


def test_a_changed_readme_number_is_named(ledger_004):
    text = verdicts.with_results(readme_with(""), verdicts.results_table(verdicts.paper_verdicts(ledger_004)))
    wrong = text.replace("8 of 10 model cells", "7 of 10 model cells")
    problems = verdicts.check_readme(wrong, ledger_004)
    assert problems == ["paper 004, reproduces: the README says 7 where the ledger gives 8"]


def test_changed_words_with_the_same_numbers_are_reported(ledger_004):
    text = verdicts.with_results(readme_with(""), verdicts.results_table(verdicts.paper_verdicts(ledger_004)))
    problems = verdicts.check_readme(text.replace("model cells of Table II", "cells of Table II"), ledger_004)
    assert len(problems) == 1 and problems[0].startswith("paper 004, reproduces: same numbers, other words")


def test_missing_block_and_missing_row_are_reported(ledger_004):
    assert verdicts.check_readme("# no block\n", ledger_004)[0].startswith("no results block")
    problems = verdicts.check_readme(readme_with("| paper | x |\n|---|---|\n"), ledger_004)
    # the block has neither the overall findings nor 004's row: both are named
    assert problems[0].startswith("the overall findings differ from the ledger's")
    assert problems[1:] == ["paper 004: no row in the README's results table"]
    with pytest.raises(verdicts.VerdictError, match="results:begin"):
        verdicts.with_results("# no block\n", "table")


def test_papers_come_in_paper_order_from_the_ledger(ledger_004):
    other = ledger_004.copy()
    other["paper"] = "003"
    both = pd.concat([ledger_004, other], ignore_index=True)
    assert [v.paper for v in verdicts.paper_verdicts(both)] == ["003", "004"]


def test_readme_states_the_004_model_numbers(ledger_004):
    # The README's results table was written from a full ledger; every number of the 004 verdict computed
    # from the regenerated model rows alone must be in the README's 004 row.
    problems = verdicts.check_readme(README.read_text(encoding="utf-8"), ledger_004, partial=True)
    assert problems == []


def test_partial_check_names_a_missing_number(ledger_004):
    text = README.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| **004**"))
    wrong = text.replace(row, row.replace("4.89%", "4.98%"))
    problems = verdicts.check_readme(wrong, ledger_004, partial=True)
    assert len(problems) == 1 and problems[0].startswith("paper 004, does not reproduce: the ledger gives 4.89")


def test_cli_check_fails_then_write_fixes(tmp_path, ledger_004, capsys):
    path = tmp_path / "ledger.csv"
    ledger_004.to_csv(path, index=False)
    readme = tmp_path / "README.md"
    readme.write_text(readme_with("| **004** stale | 1 | 2 | 3 |\n"), encoding="utf-8")
    assert verdicts.main(["--ledger", str(path), "--check", str(readme)]) == 1
    assert "paper 004" in capsys.readouterr().out
    assert verdicts.main(["--ledger", str(path), "--write", str(readme)]) == 0
    assert verdicts.main(["--ledger", str(path), "--check", str(readme)]) == 0
    assert readme.read_text(encoding="utf-8").endswith("more text\n")


def test_cli_names_a_missing_ledger(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(readme_with(""), encoding="utf-8")
    assert verdicts.main(["--ledger", str(tmp_path / "none.csv"), "--check", str(readme)]) == 2
    assert "none.csv: no ledger" in capsys.readouterr().err


def test_paragraph_says_what_reproduces_and_what_does_not(ledger_004):
    (v,) = verdicts.paper_verdicts(ledger_004)
    text = v.paragraph()
    assert "**Reproduces:** 8 of 10" in text and "**Does not:**" in text and "**Why:**" in text
    assert "reproduced" in text.split("**Ledger:**")[1]


def test_a_paper_without_its_own_wording_gets_the_ledger_counts(ledger_004):
    words = verdicts.counts_only(verdicts.PaperRows("004", ledger_004))
    # 21 published numbers: Table II's 20 cells and Fig. 1's alpha; 8 model cells and alpha reproduce.
    assert words.reproduces == "9 of 21 published numbers reproduced or within 5%"
    assert words.does_not == "2 differ, 10 not regenerable"
    assert words.headline == "1 of 2 claims supported, 1 refuted"


def test_citation_takes_the_title_from_the_datapackage():
    # data/004/datapackage.json's title ends with "(Lee & Atiquzzaman)", an author note, not part of the title.
    assert verdicts.title("004") == "Web object transfer latency over SCTP in the initial slow-start phase"
    assert verdicts.citation("004").startswith("Y.-J. Lee, M. Atiquzzaman, *Web object transfer latency")


def test_cli_names_a_malformed_ledger(tmp_path, ledger_004, capsys):
    path = tmp_path / "ledger.csv"
    ledger_004.drop(columns=["status"]).to_csv(path, index=False)
    readme = tmp_path / "README.md"
    readme.write_text(readme_with(""), encoding="utf-8")
    assert verdicts.main(["--ledger", str(path), "--check", str(readme)]) == 2
    assert "missing columns ['status']" in capsys.readouterr().err


def row(source, row_, column, published, regenerated, status, reason, **structured):
    """Return one ledger row (no provenance) as a dict; ``structured``: its structured columns (default empty, the
    evidence ``model``)."""
    return {**dict(paper="001", source=source, row=row_, column=column, published=published, regenerated=regenerated,
                   rel_error="", status=status, reason=reason),
            **{c: "" for c in ledger.STRUCTURED_COLUMNS}, "evidence": "model", **structured,
            **{c: "" for c in ledger.PROVENANCE_COLUMNS}}


def test_001_wording_reads_table3_the_slope_and_the_claims():
    link = {"convention": "y_unit_bps=1000.0, link_bps=10000000.0, load_column=text, browser_rounding=half_up, "
                          "rounding=half_up"}
    frame = pd.DataFrame([
        row("Table 3", "80%", "The Number of Browsers", "2770", "2770.00", "reproduced", "x", **link),
        row("Table 3", "90%", "The Number of Browsers", "3111", "3111.00", "reproduced", "x", **link),
        row("Table 3", "95%", "The Number of Browsers", "3384", "3384.00", "reproduced", "x", **link),
        row("Table 3", "row 3", "Traffic Load", "95%", "98.00", "typo", "x", compared_as="98", evidence="printed"),
        row("Section 2.2 (calibration line)", "y", "slope", "2.9327", "0.089239", "differs", "x", evidence="ns-3"),
        row("Section 3", "fifo_80_short_p90", "p90", "500", "510", "close", "x", evidence="ns-3"),
        row("Section 3", "red_98_long", "p90", "1500", "900", "differs", "x", evidence="ns-3"),
        row("Section 3", "a", "claim", "", "", "supported", "x", claim_id="a", evidence="ns-3",
            other_status="inconclusive"),
        row("Section 3", "b", "claim", "", "", "refuted", "x", claim_id="b", evidence="ns-3", other_status="refuted"),
        row("Section 3", "c", "claim", "", "", "inconclusive", "x", claim_id="c", evidence="ns-3",
            other_status="supported"),
    ])
    (v,) = verdicts.paper_verdicts(frame)
    assert v.reproduces == ("3 of 3 browser counts of Table 3, reading the line's y in kbit/s of a 10 Mbit/s link; "
                            "the row printed '95%' is the text's 98% (a typo)")
    # 2.9327 / 0.089239 = 32.9, so "33 times lower"; one of the two read-off numbers is more than 5% off.
    assert v.does_not == ("the calibration slope: 0.0892 kbit/s per browser on Mah's measured workload against the "
                          "printed 2.9327 (33 times lower); 1 of 2 numbers the text reads off its figures (more than "
                          "5% from the testbed)")
    assert v.headline.startswith("on Mah's measured workload 1 of 3 claims supported, 1 refuted, 1 inconclusive")
    # Claims a and c depend on the workload; neither pairs supported with refuted.
    assert v.headline.endswith("2 verdicts depend on the workload, 0 between supported and refuted")


def test_004_real_stack_claims_enter_the_headline(ledger_004):
    claims = ledger_004[ledger_004["status"].isin(ledger.CLAIM_STATUSES)].copy()
    claims["column"] = verdicts.REAL_STACKS
    claims["status"] = "refuted"
    # within_4_percent first, then tcp_two_rtt_larger (claims.csv order): 10.3% off; TCP 1.42 T_r *faster*.
    claims["regenerated"] = ["10.3426", "-1.4248"]
    (v,) = verdicts.paper_verdicts(pd.concat([ledger_004, claims], ignore_index=True))
    # Real-time measurements move from run to run: their statuses are stated, not their numbers.
    assert v.headline.endswith("on today's real stacks 'within 4%' is refuted; 'TCP is 2 RTT slower' is refuted, "
                               "SCTP being the slower stack")
    assert "10.3" not in v.headline and "1.42" not in v.headline
    # The published-table verdicts are unchanged by the extra rows.
    assert "'within 4%': 4.89% on the paper's own table" in v.does_not


def _measured(ledger_004: pd.DataFrame) -> pd.DataFrame:
    """Return the 004 ledger with Table II's 10 experimental cells (not_regenerable) measured again.

    In the order of the ledger: 3 close (the measured 95% interval within 5% of the print), 4 undecided (the interval
    reaches across 5%), 3 differ (the interval wholly beyond 5%).
    """
    frame = ledger_004.copy()
    experimental = frame.index[frame["status"] == "not_regenerable"]
    assert len(experimental) == 10
    frame.loc[experimental, "status"] = (["measured_close"] * 3 + ["measured_inconclusive"] * 4
                                         + ["measured_differs"] * 3)
    return frame


def test_counts_only_counts_the_measured_cells_apart(ledger_004):
    words = verdicts.counts_only(verdicts.PaperRows("004", _measured(ledger_004)))
    # 21 published numbers, 10 of them measured again: 11 regenerated by the model, of which 9 reproduce as
    # before; the 10 measured ones are not among them, and none is left not regenerable.
    assert words.reproduces == "9 of 11 published numbers reproduced or within 5%"
    assert words.does_not == "2 differ, 0 not regenerable"


def test_claims_are_tallied_with_inconclusive_apart_from_untestable_and_fidelity_lost():
    statuses = ["supported"] * 6 + ["refuted"] * 18 + ["inconclusive"] * 11 + ["untestable", "fidelity_lost"]
    rows = pd.DataFrame({"status": statuses})
    # 37 claims in CLAIM_STATUSES order: supported, refuted, inconclusive, untestable, fidelity_lost
    assert verdicts.claim_tally(rows) == ("6 of 37 claims supported, 18 refuted, 11 inconclusive, 1 untestable, "
                                          "1 fidelity_lost")


def test_a_measured_cell_that_lost_its_timing_is_counted_apart_and_never_as_a_claim(ledger_004):
    frame = _measured(ledger_004)
    lost = frame.index[frame["status"] == "measured_differs"][:1]
    frame.loc[lost, "status"] = "fidelity_lost"
    words = verdicts.counts_only(verdicts.PaperRows("004", frame))
    # as in test_counts_only_counts_the_measured_cells_apart: the lost cell is among the 10 measured again, not
    # among the 11 the model regenerates; the claims are still the two of the paper
    assert words.reproduces == "9 of 11 published numbers reproduced or within 5%"
    assert words.headline == "1 of 2 claims supported, 1 refuted"
    assert len(verdicts.PaperRows("004", frame).claims()) == 2
    assert verdicts.fidelity_lost_text(frame) == ("1 published measurement whose real-stack runs did not keep their "
                                                  "timing (fidelity_lost: no verdict drawn)")
    (v,) = verdicts.paper_verdicts(frame)
    assert v.measured.endswith("(fidelity_lost: no verdict drawn)")


def test_004_verdict_says_what_was_measured_again_apart_from_the_readme_columns(ledger_004):
    (before,) = verdicts.paper_verdicts(ledger_004)
    assert before.measured == "" and "Measured again" not in before.paragraph()
    assert before.why.endswith("the experimental columns cannot be re-run")
    (v,) = verdicts.paper_verdicts(_measured(ledger_004))
    # the README's columns do not move with the measurements (an emulated mean varies from run to run)
    assert (v.reproduces, v.does_not) == (before.reproduces, before.does_not)
    # of the 10 measured, 3 agree (close), 4 are undecided, 3 differ
    assert v.measured == ("3 of 10 published measurements agree with today's real stacks (the whole 95% interval of "
                          "the measured mean within 5% of the print), 4 undecided (the interval reaches across 5%); "
                          "3 of 10 published measurements differ from today's real stacks (the whole 95% interval "
                          "of the measured mean more than 5% from the print)")
    assert "**Measured again:** 3 of 10 published" in v.paragraph()
    assert "measured again on today's real stacks" in v.why
    # the ledger line of the paragraph counts them by status, in the ledger's order
    assert "3 measured_close, 4 measured_inconclusive, 3 measured_differs" in v.counts
    assert "not_regenerable" not in v.counts


def test_measured_cells_all_agreeing_leave_the_does_not_column_alone(ledger_004):
    frame = ledger_004.copy()
    frame.loc[frame["status"] == "not_regenerable", "status"] = "measured_close"
    assert verdicts.measured_disagree(frame) == ""
    assert verdicts.measured_agree(frame) == ("10 of 10 published measurements agree with today's real stacks "
                                              "(the whole 95% interval of the measured mean within 5% of the "
                                              "print)")


def row005(source, row_, column, published, regenerated, status, reason="r", **structured):
    """Return one paper-005 ledger row (no provenance) as a dict."""
    return {**row(source, row_, column, published, regenerated, status, reason, **structured), "paper": "005"}


def ledger_005(real_stacks: bool = False) -> pd.DataFrame:
    """Return a hand-made paper-005 ledger: 3 input anchors, the scored ones, the four claims, the questions.

    Model side: page weights that differ, Dukkipati's 10 against a model 3.88, the handshakes and first flights
    not_regenerable; every question supported but 002's 20%, refuted at 33.85. With ``real_stacks`` the
    handshakes and first flights are measured and the questions judged again there.
    """
    from paperlib.reproduce.p005.claims import CLAIMS

    claims = pd.read_csv(verdicts.DATA_DIR / "005" / "claims.csv", dtype=str)
    measured = "measured_close" if real_stacks else "not_regenerable"
    rows = [
        row005("data/005/requests_per_page.csv", "desktop p50", "value", "71", "71", "input"),
        row005("data/005/requests_per_page.csv", "mobile p50", "value", "66", "66", "input"),
        row005("data/005/initial_windows.csv", "TCP", "segments", "10", "10", "input"),
        row005("data/005/page_weight.csv", "desktop median", "page weight (KB)", "2652", "2401.28", "differs"),
        row005("data/005/page_weight.csv", "mobile median", "page weight (KB)", "2311", "2157.68", "differs"),
        row005("data/005/handshake_rtts.csv", "QUIC (new connection, 1-RTT handshake)", "rtts", "1", "1.00", measured),
        row005("data/005/initial_windows.csv", "QUIC", "first flight (packets)", "10", "10.00", measured),
        row005("text: dukkipati2010: Abstract", "dukkipati_latency_gain", "improvement", "10", "3.8812", "differs"),
    ]
    rows += [row005("dukkipati2010: Abstract", c, "claim", "", "1.0", s, claim_id=i)
             for i, c, s in zip(claims["id"], claims["claim"], ["supported", "supported", "supported", "untestable"],
                                strict=True)]
    questions = {"iw10_gain": "2.3666", "quic_handshake_saving": "1.0000", "h3_beats_h2_loss": "3.7080",
                 "sctp_streams_same": "3.7080", "h3_less_than_h2_000": "33.8517", "h3_less_20pct_002": "33.8517"}
    for ident, value in questions.items():
        status = "refuted" if ident == "h3_less_20pct_002" else "supported"
        rows.append(row005("paper 005 question (issue 25)", CLAIMS.questions[ident], "claim", "", value, status,
                           claim_id=ident))
        if real_stacks:
            rows.append(row005("paper 005 question (issue 25)", CLAIMS.questions[ident], verdicts.REAL_STACKS, "",
                               "12.3456", "untestable" if ident == "sctp_streams_same" else status, "h2 ...",
                               claim_id=ident, evidence="real stacks", emulation="ran"))
    return pd.DataFrame(rows)


def test_005_finding_scores_the_anchors_and_states_the_questions():
    (v,) = verdicts.paper_verdicts(ledger_005())
    # 3 of the 8 anchors are input; the page weights and Dukkipati's 10% are scored, and differ.
    assert v.why.startswith("3 of the 8 anchors are inputs the model takes as given")
    # 2401.28 and 2157.68 KB to the nearest KB: 2401 and 2158.
    assert v.does_not == ("the median page weight (desktop / mobile: printed 2652 / 2311 KB, the model's median "
                          "homepage 2401 / 2158 KB); Dukkipati's ~10% latency gain of IW10 (the model's mean gain "
                          "over IW4 on the heat map's grid: 3.88%)")
    assert v.reproduces == ("in the model, 3 of 4 claims supported, 1 untestable (the abstracts of Dukkipati et al. "
                            "and Langley et al.)")
    # 2.3666 -> 2.4%; 33.8517 -> 33.9%; no real-stack clause without real-stack rows
    assert v.headline.startswith("in the model, IW10 against IW3 shortens today's page by 2.4% at the real stacks' "
                                 "link: supported; QUIC saves one handshake round trip: supported")
    assert v.headline.endswith("002's '20% faster' as HTTP/3 against HTTP/2: refuted (HTTP/3 33.9% faster)")
    assert "real stacks," not in v.headline
    assert "RFCs' counts until the real stacks run" in v.why
    # the input rows are counted in the paragraph's ledger line, not as published numbers
    assert "3 input" in v.counts


def test_005_finding_states_the_real_stacks_by_status_only():
    (v,) = verdicts.paper_verdicts(ledger_005(real_stacks=True))
    (model,) = verdicts.paper_verdicts(ledger_005())
    # the README's cells do not move with the measurements but for the statuses
    assert (v.reproduces, v.does_not) == (model.reproduces, model.does_not)
    assert v.headline.startswith(model.headline)
    # grouped by status, in the ledger's order of statuses
    assert v.headline.endswith("on today's real stacks, supported: IW10 against IW3 shortens today's page, QUIC "
                               "saves one handshake round trip, HTTP/3 beats HTTP/2 under loss beyond the handshake, "
                               "000's 'SCTP waits less than TCP' as HTTP/3 against HTTP/2; refuted: 002's '20% "
                               "faster' as HTTP/3 against HTTP/2; untestable: SCTP's streams do the same")
    assert "12.3" not in v.headline
    assert "QUIC (new connection, 1-RTT handshake) rtts: measured_close" in v.why
    # 2 measured anchors, both close
    assert v.measured.startswith("2 of 2 published measurements agree with today's real stacks")
    frame = ledger_005(real_stacks=True)
    frame.loc[frame["column"] == verdicts.REAL_STACKS, "status"] = "untestable"
    (none,) = verdicts.paper_verdicts(frame)
    assert none.headline.endswith("; on today's real stacks, all 6 questions untestable")


def test_a_paper_without_a_seed_is_cited_by_its_sources(tmp_path):
    folder = tmp_path / "009"
    folder.mkdir()
    (folder / "datapackage.json").write_text('{"title": "Anchors: a test"}', encoding="utf-8")
    (folder / "sources.csv").write_text(
        "id,title,authors,published\n"
        "rfc9000,QUIC,J. Iyengar; M. Thomson,\"RFC 9000, May 2021\"\n"
        "almanac2024_http,\"Web Almanac 2024, Part IV Chapter: HTTP\",R. Marx,HTTP Archive Web Almanac 2024\n"
        "rfc793,TCP,J. Postel,\"RFC 793, 1981\"\n"
        "smith2001,A paper,A. Smith,\"A journal 1(2), July 2001\"\n", encoding="utf-8")
    # RFCs by number (sorted), the Almanac by edition, a one-author paper without "et al."
    assert verdicts.citation("009", tmp_path) == ("*Anchors: a test*, from the Web Almanac 2024, RFCs 793 and 9000 "
                                                  "and Smith (2001)")
    assert verdicts.citation("005").startswith("*Today's anchors: page weight, requests, HTTP versions")
    assert "Dukkipati et al. (2010) and Langley et al. (2017)" in verdicts.citation("005")
