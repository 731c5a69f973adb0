"""Tests of paperlib.units: parsing printed quantities and converting them to SI."""

import pytest

from paperlib import units


def test_quantity_parses_number_and_known_unit():
    q = units.parse_quantity("28 Kbps")
    assert (q.value, q.unit) == (28.0, "Kbps")
    assert q.to_si() == 28_000.0  # rates are decimal: 28 * 1000 bit/s


def test_size_prefix_needs_an_explicit_kilo():
    with pytest.raises(ValueError, match="explicit kilo"):
        units.to_si(50, "KB")
    assert units.to_si(50, "KB", kilo=1000) == 400_000.0  # 50 * 1000 B * 8 bit
    assert units.to_si(50, "KB", kilo=1024) == 409_600.0  # 50 * 1024 B * 8 bit


def test_unknown_unit_is_named():
    with pytest.raises(units.UnitError, match="'furlongs'"):
        units.parse_quantity("3 furlongs")


def test_time_units_and_round_trip():
    assert units.to_si(256, "ms") == pytest.approx(0.256)
    assert units.from_si(units.to_si(13.5, "KB", kilo=1024), "KB", kilo=1024) == pytest.approx(13.5)


def test_kilo_must_be_1000_or_1024():
    with pytest.raises(ValueError, match="1000 or 1024"):
        units.to_si(1, "KB", kilo=1001)
