"""Stock levels, reservations and CSV import for a small warehouse."""
from .errors import InventoryError, OutOfStock, UnknownSku
from .stock import Inventory
from .importer import parse_csv, load_levels
from .report import totals, render, render_json

__all__ = ["Inventory", "InventoryError", "OutOfStock", "UnknownSku", "parse_csv", "load_levels", "totals", "render", "render_json"]
