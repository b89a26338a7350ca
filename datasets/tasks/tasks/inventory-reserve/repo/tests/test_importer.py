import pytest

from inventory import load_levels, parse_csv
from inventory.importer import sniff_delimiter


@pytest.mark.parametrize("sample,expected", [("a,b,c", ","), ("a;b;c", ";"), ("a\tb", "\t"), ("abc", ",")])
def test_sniff_delimiter(sample, expected):
    assert sniff_delimiter(sample) == expected


def test_parse_semicolon():
    rows = parse_csv("SKU; Qty\nwidget;4\n\ngadget;1\n")
    assert rows == [{"sku": "widget", "qty": "4"}, {"sku": "gadget", "qty": "1"}]


def test_load_levels_adds_repeats():
    inv = load_levels("sku,qty\nwidget,2\nwidget,3\n")
    assert inv.level("widget") == 5


def test_load_levels_bad_qty_names_line():
    with pytest.raises(ValueError, match="line 3"):
        load_levels("sku,qty\nwidget,2\ngadget,lots\n")


def test_empty_csv():
    assert parse_csv("") == []
