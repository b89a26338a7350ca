"""Helpers shared by the features."""
import re
import unicodedata

_WS = re.compile(r"\s+")


def normalize_ws(text: str) -> str:
    """Collapse runs of whitespace to one space and strip the ends."""
    return _WS.sub(" ", text).strip()


def strip_accents(text: str) -> str:
    """'Crème brûlée' -> 'Creme brulee'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def display_width(text: str) -> int:
    """Columns a string takes in a terminal (wide East Asian characters count 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
