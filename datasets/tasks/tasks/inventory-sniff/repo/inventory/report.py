"""Reports over an Inventory."""
from __future__ import annotations

import json
from typing import Dict

from .stock import Inventory


def totals(inv: Inventory) -> Dict[str, float]:
    """Number of SKUs, units on hand, and the mean units per SKU (0 for an empty store)."""
    items = list(inv.items())
    units = sum(q for _, q in items)
    return {"skus": len(items), "units": units, "mean": units / len(items) if items else 0.0}


def render(inv: Inventory) -> str:
    """A fixed-width text table of SKU and level."""
    items = list(inv.items())
    width = max([len("sku")] + [len(s) for s, _ in items])
    lines = [f"{'sku'.ljust(width)}  qty"] + [f"{s.ljust(width)}  {q:>3}" for s, q in items]
    return "\n".join(lines)


def render_json(inv: Inventory) -> str:
    """The levels and totals as JSON."""
    return json.dumps({"levels": dict(inv.items()), "totals": totals(inv)}, sort_keys=True)
