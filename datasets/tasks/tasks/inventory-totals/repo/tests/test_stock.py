import pytest

from inventory import Inventory, OutOfStock, UnknownSku


@pytest.fixture
def inv():
    return Inventory({"widget": 5, "gadget": 2})


def test_level_and_available(inv):
    assert inv.level("widget") == 5
    assert inv.available("widget") == 5


def test_unknown_sku(inv):
    with pytest.raises(UnknownSku):
        inv.level("nope")


def test_receive_new_and_existing(inv):
    assert inv.receive("widget", 3) == 8
    assert inv.receive("doohickey", 1) == 1


def test_receive_rejects_non_positive(inv):
    with pytest.raises(ValueError):
        inv.receive("widget", 0)


def test_reserve_reduces_available(inv):
    assert inv.reserve("widget", 2) == 3
    assert inv.available("widget") == 3
    assert inv.level("widget") == 5


def test_reserve_insufficient(inv):
    with pytest.raises(OutOfStock) as e:
        inv.reserve("gadget", 3)
    assert e.value.available == 2
    assert "only 2 available" in str(e.value)


def test_release_and_ship(inv):
    inv.reserve("widget", 4)
    inv.release("widget", 1)
    assert inv.available("widget") == 2
    assert inv.ship("widget", 3) == 2
    assert inv.available("widget") == 2


def test_ship_more_than_reserved(inv):
    inv.reserve("widget", 1)
    with pytest.raises(ValueError):
        inv.ship("widget", 2)


def test_low_stock(inv):
    inv.reserve("widget", 4)
    assert inv.low_stock(3) == ["gadget", "widget"]
    assert inv.low_stock(1) == []
