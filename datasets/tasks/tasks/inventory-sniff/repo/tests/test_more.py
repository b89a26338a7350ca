"""More behaviour of stock, import and reports."""
import json

import pytest

from inventory import Inventory, InventoryError, OutOfStock, UnknownSku, load_levels, parse_csv, render, render_json, totals
from inventory.importer import sniff_delimiter


@pytest.mark.parametrize("qty", [-1, 0])
def test_reserve_rejects_non_positive(qty):
    with pytest.raises(ValueError):
        Inventory({"a": 5}).reserve("a", qty)


@pytest.mark.parametrize("first,second,left", [(1, 1, 3), (2, 3, 0), (5, 0, 0)])
def test_reserve_twice(first, second, left):
    inv = Inventory({"a": 5})
    inv.reserve("a", first)
    if second:
        inv.reserve("a", second)
    assert inv.available("a") == left


def test_reserve_unknown_sku():
    with pytest.raises(UnknownSku):
        Inventory().reserve("x", 1)


def test_out_of_stock_is_inventory_error():
    assert issubclass(OutOfStock, InventoryError)
    assert issubclass(UnknownSku, KeyError)


def test_unknown_sku_message():
    assert str(UnknownSku("x")) == "unknown SKU 'x'"


def test_out_of_stock_fields():
    e = OutOfStock("w", 3, 1)
    assert (e.sku, e.requested, e.available) == ("w", 3, 1)


def test_release_more_than_reserved():
    inv = Inventory({"a": 2})
    with pytest.raises(ValueError):
        inv.release("a", 1)


def test_ship_reduces_level_and_keeps_available():
    inv = Inventory({"a": 10})
    inv.reserve("a", 4)
    assert inv.ship("a", 4) == 6
    assert inv.available("a") == 6


@pytest.mark.parametrize("levels,threshold,expected", [
    ({"a": 1, "b": 5}, 2, ["a"]),
    ({"a": 1, "b": 5}, 6, ["a", "b"]),
    ({}, 1, []),
])
def test_low_stock_thresholds(levels, threshold, expected):
    assert Inventory(levels).low_stock(threshold) == expected


def test_items_sorted():
    assert list(Inventory({"b": 1, "a": 2}).items()) == [("a", 2), ("b", 1)]


@pytest.mark.parametrize("text,expected", [
    ("sku,qty\nw,1\n", [{"sku": "w", "qty": "1"}]),
    ("SKU\tQTY\nw\t2\n", [{"sku": "w", "qty": "2"}]),
    ("sku;qty\n w ; 3 \n", [{"sku": "w", "qty": "3"}]),
    ("sku,qty\n", []),
])
def test_parse_csv_variants(text, expected):
    assert parse_csv(text) == expected


@pytest.mark.parametrize("sample,expected", [("a;b,c;d", ";"), ("a,b\tc,d", ","), ("", ",")])
def test_sniff_delimiter_majority(sample, expected):
    assert sniff_delimiter(sample) == expected


def test_load_levels_semicolon():
    assert load_levels("sku;qty\nw;7\n").level("w") == 7


def test_load_levels_missing_column():
    with pytest.raises(ValueError, match="line 2"):
        load_levels("sku,count\nw,1\n")


def test_load_levels_then_reserve():
    inv = load_levels("sku,qty\nw,3\n")
    assert inv.reserve("w", 2) == 1


@pytest.mark.parametrize("levels,units,mean", [({"a": 1}, 1, 1.0), ({"a": 1, "b": 2}, 3, 1.5), ({"a": 0, "b": 0}, 0, 0.0)])
def test_totals_variants(levels, units, mean):
    t = totals(Inventory(levels))
    assert (t["units"], t["mean"]) == (units, mean)


def test_render_empty():
    assert render(Inventory()) == "sku  qty"


def test_render_long_sku():
    assert render(Inventory({"a-very-long-sku": 1})).splitlines()[1] == "a-very-long-sku    1"


def test_render_json_sorted_keys():
    out = render_json(Inventory({"b": 1, "a": 2}))
    assert out.index('"a"') < out.index('"b"')
    assert json.loads(out)["totals"]["units"] == 3


def test_receive_then_totals():
    inv = Inventory()
    inv.receive("x", 2)
    inv.receive("y", 4)
    assert totals(inv) == {"skus": 2, "units": 6, "mean": 3.0}


@pytest.mark.parametrize("sku", ["widget", "gadget", "doohickey"])
def test_receive_creates_sku(sku):
    inv = Inventory()
    inv.receive(sku, 1)
    assert inv.level(sku) == 1 and inv.available(sku) == 1


def test_available_unknown_sku():
    with pytest.raises(UnknownSku):
        Inventory().available("nope")


def test_release_then_reserve_again():
    inv = Inventory({"a": 2})
    inv.reserve("a", 2)
    inv.release("a", 2)
    assert inv.reserve("a", 2) == 0


def test_ship_without_reservation():
    with pytest.raises(ValueError):
        Inventory({"a": 2}).ship("a", 1)
