"""URL slugs."""
import re
from typing import Iterable

from ._util import normalize_ws, strip_accents

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str, sep: str = "-", max_length: int = 0) -> str:
    """A lower-case ASCII slug: 'Hello, World!' -> 'hello-world'. max_length cuts at a separator."""
    ascii_text = strip_accents(normalize_ws(text)).lower()
    slug = _NON_WORD.sub(sep, ascii_text).strip(sep)
    if max_length and len(slug) > max_length:
        cut = slug[:max_length]
        slug = cut.rsplit(sep, 1)[0] if sep in cut else cut
    return slug


def unique_slug(text: str, taken: Iterable[str], sep: str = "-") -> str:
    """slugify(text), with -2, -3, ... appended until it is not in `taken`."""
    taken = set(taken)
    base = slugify(text, sep) or "item"
    if base not in taken:
        return base
    n = 2
    while f"{base}{sep}{n}" in taken:
        n += 1
    return f"{base}{sep}{n}"
