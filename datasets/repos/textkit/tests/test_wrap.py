import pytest

from textkit import fill, shorten, wrap


def test_wrap_basic():
    assert wrap("the quick brown fox jumps over the lazy dog", 10) == ["the quick", "brown fox", "jumps over", "the lazy", "dog"]


def test_wrap_long_word_own_line():
    assert wrap("a supercalifragilistic b", 5) == ["a", "supercalifragilistic", "b"]


def test_wrap_normalizes_whitespace():
    assert wrap("a\n\n b\tc", 80) == ["a b c"]


def test_wrap_empty():
    assert wrap("", 10) == []


def test_wrap_rejects_bad_width():
    with pytest.raises(ValueError):
        wrap("x", 0)


def test_wrap_wide_characters():
    assert wrap("日本 語", 4) == ["日本", "語"]


def test_fill_indent():
    assert fill("one two three", 9, indent="> ") == "> one two\n> three"


@pytest.mark.parametrize("text,width,expected", [
    ("short", 10, "short"),
    ("the quick brown fox", 12, "the quick…"),
    ("unbreakable", 5, "…"),
])
def test_shorten(text, width, expected):
    assert shorten(text, width) == expected


def test_shorten_custom_placeholder():
    assert shorten("alpha beta gamma", 13, placeholder=" [...]") == "alpha [...]"
