"""CSV import of stock levels: comma, semicolon or tab separated, with a header row."""
from __future__ import annotations

import csv
import io
from typing import Dict, List

from .stock import Inventory


def sniff_delimiter(sample: str) -> str:
    """The delimiter of a CSV sample: ',', ';' or a tab."""
    counts = {d: sample.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def parse_csv(text: str) -> List[Dict[str, str]]:
    """Rows of a CSV text as dicts keyed by the (stripped, lower-cased) header."""
    delimiter = sniff_delimiter(text.split("\n", 1)[0])
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = [r for r in reader if any(cell.strip() for cell in r)]
    if not rows:
        return []
    header = [h.strip().lower() for h in rows[0]]
    return [dict(zip(header, (cell.strip() for cell in r))) for r in rows[1:]]


def load_levels(text: str) -> Inventory:
    """An Inventory from a CSV with `sku` and `qty` columns; repeated SKUs add up."""
    inv = Inventory()
    for i, row in enumerate(parse_csv(text), start=2):
        try:
            qty = int(row["qty"])
        except (KeyError, ValueError):
            raise ValueError(f"line {i}: bad or missing qty") from None
        inv.receive(row["sku"], qty)
    return inv
