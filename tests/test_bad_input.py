"""Bad input never changes a result silently (issue 13): one test per defect, plus hypothesis properties.

Every test here calls the checks directly (no kernel): about 10 s in all.
"""

import json
import shutil
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies

from paperlib import validate
from paperlib.data import DATA_DIR, DataError, load_paper
from paperlib.models import narrowband_response, slow_start_schedule
from paperlib.parameters import check
from paperlib.reproduce.p000 import what_if as p000_what_if
from paperlib.reproduce.p004 import ledger_rows as p004_ledger_rows
from paperlib.reproduce.p004 import operating_point as p004_operating_point
from paperlib.reproduce.p004 import what_if as p004_what_if
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
NB004 = REPO / "notebooks" / "004_slow_start_latency.ipynb"
TABLE2 = (DATA_DIR / "004" / "table2.csv").read_text(encoding="utf-8")


@pytest.fixture
def data_root(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(DATA_DIR / "004", root / "004")
    return root


def _ledger(root) -> list[dict]:
    """Return 004's ledger rows (without provenance) computed from the data under ``root``."""
    return [asdict(r) for r in p004_ledger_rows.ledger_rows(load_paper("004", root))]


BASELINE = [asdict(r) for r in p004_ledger_rows.ledger_rows(load_paper("004"))]


# --- data: shape and meaning ----------------------------------------------------------------

def test_extra_row_in_table2_is_rejected(data_root):
    (data_root / "004" / "table2.csv").write_text(TABLE2 + "20 Mbps,1.00,0.80,1.40,1.20\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"table2.csv: row 6 \(line 7\), column 'BANDWIDTH': '20 Mbps' is not a row"):
        load_paper("004", data_root)


def test_duplicated_row_in_table2_is_rejected(data_root):
    lines = TABLE2.splitlines(keepends=True)
    (data_root / "004" / "table2.csv").write_text("".join(lines + [lines[3]]), encoding="utf-8")
    with pytest.raises(DataError, match=r"row 6 \(line 7\), column 'BANDWIDTH': duplicates row 3"):
        load_paper("004", data_root)


def test_missing_row_is_rejected(data_root):
    lines = TABLE2.splitlines(keepends=True)
    (data_root / "004" / "table2.csv").write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(DataError, match=r"declared row\(s\) \['10 Mbps'\] missing"):
        load_paper("004", data_root)


def test_time_unit_in_a_rate_column_is_rejected(data_root):
    # "28 ms" parses as a quantity (0.028 s); read as a rate it was 0.028 bit/s and moved the ledger
    (data_root / "004" / "table2.csv").write_text(TABLE2.replace("28 Kbps", "28 ms"), encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1 \(line 2\), column 'BANDWIDTH': '28 ms' has dimension 's', "
                                        r"the column's declared dimension is 'bit/s'"):
        load_paper("004", data_root)


def test_quantity_column_must_declare_its_dimension(data_root):
    meta = data_root / "004" / "datapackage.json"
    meta.write_text(meta.read_text(encoding="utf-8").replace('"dimension": "bit/s", ', ""), encoding="utf-8")
    with pytest.raises(DataError, match=r"datapackage.json: column 'BANDWIDTH': .*declares no \"dimension\""):
        load_paper("004", data_root)


def test_table_must_declare_its_rows(data_root):
    meta_path = data_root / "004" / "datapackage.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    del meta["resources"][0]["rows"]
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(DataError, match="resource 'table2' declares no rows"):
        load_paper("004", data_root)


def test_byte_order_mark_is_handled(data_root):
    (data_root / "004" / "table2.csv").write_bytes(b"\xef\xbb\xbf" + TABLE2.encode("utf-8"))
    assert _ledger(data_root) == BASELINE  # it used to fail with "column 'BANDWIDTH' missing"


# --- parameters: strict kinds, before anything is written -------------------------------------

@pytest.mark.parametrize("check_fn, name, value, match", [
    (validate.positive, "rate_bps", True, "got the boolean"),
    (validate.positive, "rate_bps", "0.05", "got the string"),
    (validate.positive, "rate_bps", [1e6, False], "got the boolean"),
    (validate.probability, "p", np.array(["0.1"]), "must hold numbers"),
])
def test_validate_rejects_booleans_and_strings_as_numbers(check_fn, name, value, match):
    with pytest.raises(ParameterError, match=f"^{name} .*{match}"):
        check_fn(name, value)


def test_list_for_a_scalar_is_named_not_a_type_error():
    with pytest.raises(ParameterError, match="^rtt_s must be a single number"):
        p004_what_if.check(rtt_s=[0.1, 0.2])
    with pytest.raises(ParameterError, match="^p must be a single number"):
        p000_what_if.check(p=[0.01, 0.02])


# --- cost bounds -------------------------------------------------------------------------------

def test_schedule_refuses_more_segments_than_its_limit_before_building_it():
    with pytest.raises(ParameterError, match=r"^obj_bits: .* above the limit of 1e\+06"):
        slow_start_schedule.schedule_latency_s(8e12, 12000, 1e6, 0.2, 4)  # 6.7e8 segments: used to take all 24 GB
    with pytest.raises(ParameterError, match="^mtu_bits must be at least one byte"):
        slow_start_schedule.schedule_latency_s(8000, 4, 1e6, 0.2, 4)


def test_loss_loop_refuses_more_losses_than_its_limit():
    # 1e12 B in 536 B packets at p = 1 %: alpha = 1.9e7 passes of Eq. (2)'s loop (it used to hang)
    with pytest.raises(ParameterError, match="^obj_bits: the expected losses .* above the limit"):
        narrowband_response.response_time_s(8e12, 536 * 8, 40e3, 0.256, 0.01, 2)


def test_limits_are_where_stated():
    # 1e6 segments of 1 B is the schedule's limit itself: accepted; one byte more is refused
    assert p004_what_if.check(obj_size_bytes=1e6, mtu_bytes=1)["obj_size_bytes"] == 1e6
    with pytest.raises(ParameterError, match="^obj_size_bytes: the schedule's segment count .* 1e\\+06"):
        p004_what_if.check(obj_size_bytes=1e6 + 1, mtu_bytes=1)
    # 000: 13.5 KiB (13824 B) in 1 B packets at p = 1 % is ceil(138.24) = 139 losses: accepted;
    # 1e7 B at p = 1 % in 1 B packets is 1e5 losses, the limit; 1e7 + 100 B is 100001: refused
    assert p000_what_if.check(mtu_bytes=1)["mtu_bytes"] == 1
    p000_what_if.check(obj_size_bytes=1e7, mtu_bytes=1, p=0.01)
    with pytest.raises(ParameterError, match="^obj_size_bytes: the expected losses"):
        p000_what_if.check(obj_size_bytes=1e7 + 100, mtu_bytes=1, p=0.01)


# --- hypothesis: malformed data files and parameter values -------------------------------------

LINES = TABLE2.splitlines(keepends=True)
mutations = strategies.one_of(
    strategies.tuples(strategies.just("append"),
                      strategies.text(min_size=1, max_size=30).filter(lambda s: "\n" not in s and "\r" not in s)),
    strategies.tuples(strategies.just("duplicate"), strategies.integers(1, len(LINES) - 1)),
    strategies.tuples(strategies.just("drop"), strategies.integers(1, len(LINES) - 1)),
    strategies.tuples(strategies.just("cell"),
                      strategies.tuples(strategies.integers(1, len(LINES) - 1), strategies.integers(0, 4),
                                        strategies.sampled_from(["", "x", "28 ms", "1e3", "-1", "1,5", "NaN", "14.12 s",
                                                                 "28 KB", "0.5 %", "28 Kbps", "∞", " 7.54"]))),
    strategies.tuples(strategies.just("bom"), strategies.just(None)),
    strategies.tuples(strategies.just("header"), strategies.sampled_from([  # a renamed, padded, extra or swapped column
        "bandwidth,Exp(SCTP),Model(SCTP),Exp(TCP),Model(TCP)\n",
        "BANDWIDTH,Exp(SCTP) ,Model(SCTP),Exp(TCP),Model(TCP)\n",
        "BANDWIDTH,Exp(SCTP),Model(SCTP),Exp(TCP),Model(TCP),extra\n",
        "BANDWIDTH,Model(SCTP),Exp(SCTP),Exp(TCP),Model(TCP)\n"])),
)


def _mutate(kind, arg) -> bytes:
    lines = list(LINES)
    if kind == "append":
        lines.append(arg + "\n")
    elif kind == "duplicate":
        lines.append(lines[arg])
    elif kind == "drop":
        del lines[arg]
    elif kind == "cell":
        row, col, value = arg
        cells = lines[row].rstrip("\n").split(",")
        cells[col] = value
        lines[row] = ",".join(cells) + "\n"
    elif kind == "header":
        lines[0] = arg
    text = "".join(lines).encode("utf-8")
    return b"\xef\xbb\xbf" + text if kind == "bom" else text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations)
def test_malformed_table_fails_naming_what_or_leaves_the_ledger_identical(data_root, mutation):
    (data_root / "004" / "table2.csv").write_bytes(_mutate(*mutation))
    try:
        rows = _ledger(data_root)
    except DataError as err:
        assert "table2.csv" in str(err) or "datapackage.json" in str(err)
        return
    # loaded: only a change that means the same table may get here (a BOM, a cell written the same way)
    assert rows == BASELINE, mutation


bad_values = strategies.one_of(
    strategies.booleans(), strategies.text(max_size=8), strategies.none(),
    strategies.floats(allow_nan=True, allow_infinity=True),
    strategies.integers(-10**15, 10**15), strategies.lists(strategies.floats(-1e9, 1e9), max_size=4),
    strategies.lists(strategies.one_of(strategies.booleans(), strategies.text(max_size=3), strategies.integers(-5, 5)),
                     max_size=3),
    strategies.dictionaries(strategies.text(max_size=3), strategies.integers(), max_size=2),
)
PARAMS_004 = ["obj_size_bytes", "mtu_bytes", "rtt_s", "initial_window", "initial_windows", "rates_bps"]


@settings(max_examples=100, deadline=None)
@given(strategies.sampled_from(PARAMS_004), bad_values)
def test_any_parameter_value_fails_naming_it_or_runs_bounded(name, value):
    try:
        checked = check(NB004, {name: value})
        p004_what_if.check(**checked)
    except ParameterError as err:
        assert name in str(err)
        return
    # accepted: the what-if runs without any other error (cost bounded), and the ledger does not move
    paper = load_paper("004")
    w = p004_what_if.what_if(paper, p004_operating_point.chosen_convention(paper), **checked)
    curve = p004_what_if.latency_vs_rate(w)
    assert np.isfinite(curve[["sctp_corrected_s", "tcp_corrected_s"]].to_numpy()).all()
    assert [asdict(r) for r in p004_ledger_rows.ledger_rows(paper)] == BASELINE


# --- make without side effects ------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_help_and_dry_run_change_no_state(tmp_path):
    # make help PROFILE=full used to rewrite .cache/profile, so the next make reproduce reran 001
    import subprocess

    stamp = REPO / ".cache" / "profile"
    before = (stamp.read_bytes(), stamp.stat().st_mtime_ns) if stamp.exists() else None
    for args in (["help", "PROFILE=full"], ["-n", "reproduce", "PROFILE=other"], ["-n", "test", "PROFILE=x"]):
        subprocess.run(["make", "-C", str(REPO), *args], check=True, capture_output=True, timeout=60)
    after = (stamp.read_bytes(), stamp.stat().st_mtime_ns) if stamp.exists() else None
    assert after == before
