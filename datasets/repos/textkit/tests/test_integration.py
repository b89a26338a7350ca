"""Features used together (they share the helpers in textkit._util)."""
import pytest

from textkit import fill, render_table, sentences, slugify, top_words, unique_slug, words
from textkit._util import display_width, normalize_ws, strip_accents


@pytest.mark.parametrize("text,expected", [("a  b", "a b"), ("\ta\n", "a"), ("", "")])
def test_normalize_ws(text, expected):
    assert normalize_ws(text) == expected


@pytest.mark.parametrize("text,expected", [("é", "e"), ("Ångström", "Angstrom"), ("plain", "plain")])
def test_strip_accents(text, expected):
    assert strip_accents(text) == expected


@pytest.mark.parametrize("text,expected", [("abc", 3), ("日本", 4), ("", 0)])
def test_display_width(text, expected):
    assert display_width(text) == expected


def test_slugs_for_sentences_are_unique():
    taken = []
    for s in sentences("Intro. Intro. Summary."):
        taken.append(unique_slug(s, taken))
    assert taken == ["intro", "intro-2", "summary"]


def test_table_of_top_words():
    out = render_table(["word", "n"], top_words("red red blue green green green", 2))
    assert out.splitlines() == ["word   n", "-----  -", "green  3", "red    2"]


def test_fill_then_words_roundtrip():
    text = "Crème brûlée is a dessert of rich custard"
    assert words(fill(text, 12)) == words(text)


def test_slugify_of_words_joined():
    assert slugify(" ".join(words("Hello there, General Kenobi"))) == "hello-there-general-kenobi"
