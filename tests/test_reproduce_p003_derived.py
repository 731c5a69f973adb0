"""Paper 003's derived numbers under the chosen convention, derived by hand from the slides' inputs."""

import pytest
from p003_helpers import CHOSEN

from paperlib.models import atm_overhead
from paperlib.reproduce.p003 import derived


def test_cells_per_segment_and_payload_share():
    # 512 B payload + 20 TCP + 20 IP + 8 LLC/SNAP + 8 AAL5 trailer = 568 B -> ceil(568 / 48) = 12 cells
    assert atm_overhead.cells_per_segment(512) == 12
    # with the 12-byte timestamp option: 580 B -> 13 cells
    assert atm_overhead.cells_per_segment(512, "tcp(timestamps)+ip+llc/snap+aal5") == 13
    # 512 / (12 * 53) = 0.8050; on SONET OC-3 x 149.76/155.52: 0.7752 -> the slides' "78%"
    assert atm_overhead.tcp_payload_share(512) == pytest.approx(0.80503, abs=1e-5)
    assert atm_overhead.tcp_payload_share(512, framing="sonet_oc3") == pytest.approx(0.77521, abs=1e-5)
    # F = 10 ms at 155.52 Mbit/s = 1 555 200 bit / 424 bit per cell = 3667.9 cells
    assert atm_overhead.cells_in(0.010, 155.52e6) == pytest.approx(3667.92, abs=0.01)


def test_inputs_are_the_stated_parameters_in_si(paper):
    x = derived.inputs(paper)
    # 10 s inter-batch, 45 Mbit/s T3, 150 clients, K = 15, MSS 512 B; N = 1, 2, 5, 10 with 6.1 ... 32.7 Mbit/s
    assert (x.inter_batch_s, x.t3_bps, x.clients, x.k_clients, x.mss_bytes) == (10.0, 45e6, 150, 15, 512.0)
    assert x.servers == ("1", "2", "5", "10")
    assert x.throughput_bps.tolist() == pytest.approx([6.1e6, 14.2e6, 34.1e6, 32.7e6])
    assert x.queue_cells.tolist() == [3677.0, 6154.0, 14057.0, 17269.0]
    # the original table's "p = 0.35" ... "p = 0.01"; the modified table's rule: index pages 1/5, others 0.8 x
    assert x.original_class_probs == (0.35, 0.5, 0.14, 0.01) and (x.p_index, x.p_other) == (0.2, 0.8)


def test_derived_values_under_the_chosen_convention(paper):
    v = derived.derived_values(paper, CHOSEN)
    # mean file 117.5 KiB = 120 320 B = 120.3 kB; 14.675 KiB = 120 217.6 bit = 120.2 kb
    assert v["avg_file_size_mod"] == pytest.approx(120.32)
    assert v["avg_file_size"] == pytest.approx(120.2176)
    # five files of 14.675 KiB per 10 s: 5 x 120 217.6 / 10 = 60 108.8 bit/s
    assert v["avg_load_per_user"] == pytest.approx(60.1088)
    # a page of 587.5 KiB (5 x 117.5) per 10 s: 4 812 800 bit / 10 s = 0.48128 Mbit/s; x 150 clients = 72.19
    assert v["bw_per_user_mod"] == pytest.approx(0.48128)
    assert v["load_t3"] == pytest.approx(72.192)
    # 78% (0.7752 rounded first) x 45 Mbit/s = 35.1 Mbit/s; efficiency at N = 1: 6.1 / 35.1 = 17.38%
    assert v["max_payload_t3"] == pytest.approx(35.1)
    assert v["efficiency_1"] == pytest.approx(100 * 6.1 / 35.1)
    # queue at N = 10: 17 269 cells / 3667.92 cells per F = 4.708 F
    assert v["queue_f_10"] == pytest.approx(17269 / (155.52e6 * 0.01 / 424))


def test_modified_class_probabilities_follow_the_stated_rule(paper):
    # index pages 1/5; the others 0.8 x the original 0.35, 0.5, 0.14, 0.01
    assert derived.modified_class_probs(derived.inputs(paper)) == pytest.approx(
        {"mod_p_Class 0": 0.2, "mod_p_Class 1": 0.28, "mod_p_Class 2": 0.4, "mod_p_Class 3": 0.112,
         "mod_p_Class 4": 0.008})


def test_printed_cells_list_the_23_printed_numbers(paper):
    cells = derived.printed_cells(paper)
    # 10 text values + 5 class probabilities of the modified table + 2 x 4 results-table cells (queue/F, efficiency)
    assert len(cells) == 10 + 5 + 8
    eff10 = next(c for c in cells if c.key == "efficiency_10")
    # the printed "93/2%" is compared as 93.2 (a correction of the print, with its note)
    assert (eff10.published, eff10.compare_as) == ("93/2%", "93.2") and eff10.note
