"""shelfkit 1.0.0 (installed copy)."""
from .shelves import Shelf, shelf_width, fits
from .codes import call_number, parse_call_number, checksum

__version__ = "1.0.0"
