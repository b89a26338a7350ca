from textkit import render_table
from textkit.table import column_widths


def test_render_numbers_right_aligned():
    out = render_table(["name", "qty"], [["apple", 3], ["kiwi", 12]])
    assert out.splitlines() == ["name   qty", "-----  ---", "apple    3", "kiwi    12"]


def test_render_explicit_alignment():
    out = render_table(["a", "b"], [["x", "y"]], align=["right", "center"])
    assert out.splitlines()[2] == "x  y"


def test_render_wraps_long_cells():
    out = render_table(["note"], [["a long note here"]], max_width=6)
    assert out.splitlines() == ["note", "------", "a long", "note", "here"]


def test_render_empty_rows():
    assert render_table(["a", "b"], []).splitlines() == ["a  b", "-  -"]


def test_column_widths():
    assert column_widths([["ab", "c"], ["a", "cde"]]) == [2, 3]


def test_column_widths_capped():
    assert column_widths([["abcdef"]], max_width=3) == [3]


def test_render_wide_characters():
    out = render_table(["k"], [["日本"]])
    assert out.splitlines() == ["k", "----", "日本"]
