import pytest

from textkit import reading_time, top_words, word_freq

TEXT = "The cat and the hat. The cat sat on the mat with a hat."


def test_word_freq():
    assert word_freq("a b a")["a"] == 2


def test_word_freq_drops_stopwords():
    freq = word_freq(TEXT, drop_stopwords=True)
    assert "the" not in freq
    assert freq["cat"] == 2


def test_top_words_ties_alphabetical():
    assert top_words(TEXT, 3) == [("cat", 2), ("hat", 2), ("mat", 1)]


@pytest.mark.parametrize("n_words,expected", [(0, 0), (1, 1), (200, 1), (201, 2), (1000, 5)])
def test_reading_time(n_words, expected):
    assert reading_time(" ".join(["word"] * n_words)) == expected


def test_reading_time_custom_speed():
    assert reading_time("word " * 100, wpm=50) == 2
