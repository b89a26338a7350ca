import json

from inventory import Inventory, render, render_json, totals


def test_totals():
    assert totals(Inventory({"a": 2, "b": 4})) == {"skus": 2, "units": 6, "mean": 3.0}


def test_totals_empty_store():
    assert totals(Inventory()) == {"skus": 0, "units": 0, "mean": 0.0}


def test_render_aligns():
    out = render(Inventory({"widget": 5, "ab": 12}))
    assert out.splitlines() == ["sku     qty", "ab       12", "widget    5"]


def test_render_json_roundtrip():
    data = json.loads(render_json(Inventory({"w": 1})))
    assert data == {"levels": {"w": 1}, "totals": {"mean": 1.0, "skus": 1, "units": 1}}
