"""Plain-text tables."""
from typing import List, Sequence

from ._util import display_width
from .wrap import wrap


def _pad(cell: str, width: int, align: str) -> str:
    gap = width - display_width(cell)
    if align == "right":
        return " " * gap + cell
    if align == "center":
        left = gap // 2
        return " " * left + cell + " " * (gap - left)
    return cell + " " * gap


def column_widths(rows: Sequence[Sequence[str]], max_width: int = 0) -> List[int]:
    """The widest cell per column, capped at max_width when given."""
    widths = [max(display_width(str(r[i])) for r in rows) for i in range(len(rows[0]))] if rows else []
    return [min(w, max_width) if max_width else w for w in widths]


def render_table(header: Sequence[str], rows: Sequence[Sequence[object]], align: Sequence[str] = (), max_width: int = 0) -> str:
    """A table with a header rule; numbers right-aligned unless `align` says otherwise; long cells wrap."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = column_widths(cells, max_width)
    aligns = list(align) or ["right" if rows and all(isinstance(r[i], (int, float)) for r in rows) else "left" for i in range(len(header))]
    out: List[str] = []
    for ri, row in enumerate(cells):
        wrapped = [wrap(c, widths[i]) or [""] for i, c in enumerate(row)]
        for k in range(max(len(w) for w in wrapped)):
            out.append("  ".join(_pad(w[k] if k < len(w) else "", widths[i], aligns[i]) for i, w in enumerate(wrapped)).rstrip())
        if ri == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
