"""Wrapping text to a width."""
from typing import List

from ._util import display_width, normalize_ws


def wrap(text: str, width: int = 70) -> List[str]:
    """Greedy word wrap; a word longer than the width gets a line of its own."""
    if width < 1:
        raise ValueError("width must be at least 1")
    lines: List[str] = []
    line = ""
    for word in normalize_ws(text).split(" "):
        if not word:
            continue
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def fill(text: str, width: int = 70, indent: str = "") -> str:
    """wrap() joined into one string, each line prefixed by `indent`."""
    return "\n".join(indent + line for line in wrap(text, width - len(indent)))


def shorten(text: str, width: int, placeholder: str = "…") -> str:
    """Cut at a word boundary so the result (with the placeholder) fits `width`."""
    text = normalize_ws(text)
    if display_width(text) <= width:
        return text
    words = text.split(" ")
    out = ""
    for w in words:
        candidate = f"{out} {w}" if out else w
        if display_width(candidate) + display_width(placeholder) > width:
            break
        out = candidate
    return (out + placeholder) if out else placeholder[:width]
