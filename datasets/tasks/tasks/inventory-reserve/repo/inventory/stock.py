"""In-memory stock levels with reservations."""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterable, Tuple

from .errors import OutOfStock, UnknownSku


class Inventory:
    """Stock levels per SKU; reservations hold stock until released or shipped."""

    def __init__(self, levels: Dict[str, int] | None = None):
        self._levels: Dict[str, int] = dict(levels or {})
        self._reserved: Dict[str, int] = defaultdict(int)

    def level(self, sku: str) -> int:
        """Units on hand (including reserved ones)."""
        if sku not in self._levels:
            raise UnknownSku(sku)
        return self._levels[sku]

    def available(self, sku: str) -> int:
        """Units that can still be reserved."""
        return self.level(sku) - self._reserved[sku]

    def receive(self, sku: str, qty: int) -> int:
        """Adds `qty` units of `sku` (a new SKU starts at zero); returns the new level."""
        if qty <= 0:
            raise ValueError("quantity must be positive")
        self._levels[sku] = self._levels.get(sku, 0) + qty
        return self._levels[sku]

    def reserve(self, sku: str, qty: int) -> int:
        """Holds `qty` units for an order; returns what is still available."""
        raise NotImplementedError

    def release(self, sku: str, qty: int) -> None:
        """Gives back reserved units (e.g. a cancelled order)."""
        if qty > self._reserved[sku]:
            raise ValueError(f"only {self._reserved[sku]} units of {sku} are reserved")
        self._reserved[sku] -= qty

    def ship(self, sku: str, qty: int) -> int:
        """Ships reserved units: they leave the stock. Returns the new level."""
        if qty > self._reserved[sku]:
            raise ValueError(f"only {self._reserved[sku]} units of {sku} are reserved")
        self._reserved[sku] -= qty
        self._levels[sku] -= qty
        return self._levels[sku]

    def low_stock(self, threshold: int) -> list[str]:
        """SKUs whose available units are below `threshold`, sorted."""
        return sorted(sku for sku in self._levels if self.available(sku) < threshold)

    def items(self) -> Iterable[Tuple[str, int]]:
        return sorted(self._levels.items())
