"""Paper 004's ``Convention`` (paperlib/reproduce/p004/convention.py): a frozen dataclass of the axes its search
scores, in a module that imports nothing of its package (tests/convention_helpers.py)."""

from convention_helpers import check


def test_the_convention_is_a_frozen_type_of_the_search_axes_in_a_leaf_module_and_operating_point_hands_it_out():
    check("004")

