"""Words, sentences and n-grams."""
import re
from typing import List, Tuple

from ._util import normalize_ws

_WORD = re.compile(r"[A-Za-zÀ-ÿ0-9]+(?:['’][A-Za-z]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")
_ABBREVIATIONS = {"e.g.", "i.e.", "mr.", "mrs.", "dr.", "vs.", "etc."}


def words(text: str, lower: bool = True) -> List[str]:
    """The words of a text (contractions kept whole: "don't")."""
    found = _WORD.findall(text)
    return [w.lower() for w in found] if lower else found


def sentences(text: str) -> List[str]:
    """Split on ., ! and ? followed by a capital, not after common abbreviations."""
    parts = _SENTENCE_END.split(normalize_ws(text))
    out: List[str] = []
    for p in parts:
        if out and out[-1].split(" ")[-1].lower() in _ABBREVIATIONS:
            out[-1] = f"{out[-1]} {p}"
        elif p:
            out.append(p)
    return out


def ngrams(tokens: List[str], n: int) -> List[Tuple[str, ...]]:
    """Consecutive n-tuples of tokens."""
    if n < 1:
        raise ValueError("n must be at least 1")
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
