import pytest

from shelfkit import Shelf, fits, shelf_width


def test_width_with_gaps():
    assert shelf_width([10, 20, 30]) == 64


def test_width_empty():
    assert shelf_width([]) == 0


def test_width_rejects_nonpositive():
    with pytest.raises(ValueError):
        shelf_width([10, 0])


def test_fits_exactly():
    assert fits(Shelf(32, [10, 10]), 8)


def test_does_not_fit():
    assert not fits(Shelf(30, [10, 10]), 8)


def test_add_and_free():
    s = Shelf(100)
    assert s.add(40) and s.add(40)
    assert not s.add(40)
    assert s.used() == 82
    assert s.free() == 18
