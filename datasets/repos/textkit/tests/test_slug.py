import pytest

from textkit import slugify, unique_slug


@pytest.mark.parametrize("text,expected", [
    ("Hello, World!", "hello-world"),
    ("  spaced   out  ", "spaced-out"),
    ("Crème brûlée", "creme-brulee"),
    ("already-a-slug", "already-a-slug"),
    ("C++ & Rust", "c-rust"),
    ("", ""),
    ("2026 roadmap: Q1", "2026-roadmap-q1"),
])
def test_slugify(text, expected):
    assert slugify(text) == expected


def test_slugify_separator():
    assert slugify("Hello World", sep="_") == "hello_world"


def test_slugify_max_length_cuts_at_separator():
    assert slugify("the quick brown fox", max_length=12) == "the-quick"


def test_unique_slug_free():
    assert unique_slug("Report", []) == "report"


def test_unique_slug_counts_up():
    assert unique_slug("Report", ["report", "report-2"]) == "report-3"


def test_unique_slug_empty_text():
    assert unique_slug("!!!", []) == "item"
