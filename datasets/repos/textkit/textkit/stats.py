"""Word statistics."""
import math
from collections import Counter
from typing import Dict, List, Tuple

from .tokens import words

STOPWORDS = frozenset("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split())


def word_freq(text: str, drop_stopwords: bool = False) -> Dict[str, int]:
    """How often each (lower-cased) word occurs."""
    counts = Counter(words(text))
    if drop_stopwords:
        for w in STOPWORDS:
            counts.pop(w, None)
    return dict(counts)


def top_words(text: str, n: int = 5) -> List[Tuple[str, int]]:
    """The n most frequent non-stopwords, ties broken alphabetically."""
    freq = word_freq(text, drop_stopwords=True)
    return sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def reading_time(text: str, wpm: int = 200) -> int:
    """Whole minutes to read the text (at least 1 for non-empty text)."""
    n = len(words(text))
    return 0 if n == 0 else max(1, math.ceil(n / wpm))
