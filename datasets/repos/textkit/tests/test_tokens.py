import pytest

from textkit import ngrams, sentences, words


def test_words_lowercase():
    assert words("Hello, World! Don't stop.") == ["hello", "world", "don't", "stop"]


def test_words_keep_case():
    assert words("Hello World", lower=False) == ["Hello", "World"]


def test_words_numbers_and_accents():
    assert words("café 42 naïve") == ["café", "42", "naïve"]


def test_sentences_basic():
    assert sentences("One. Two! Three? four") == ["One.", "Two!", "Three? four"]


def test_sentences_abbreviation():
    assert sentences("We met Dr. Smith. He was late.") == ["We met Dr. Smith.", "He was late."]


def test_sentences_empty():
    assert sentences("   ") == []


@pytest.mark.parametrize("n,expected", [
    (1, [("a",), ("b",), ("c",)]),
    (2, [("a", "b"), ("b", "c")]),
    (3, [("a", "b", "c")]),
    (4, []),
])
def test_ngrams(n, expected):
    assert ngrams(["a", "b", "c"], n) == expected


def test_ngrams_rejects_zero():
    with pytest.raises(ValueError):
        ngrams(["a"], 0)
