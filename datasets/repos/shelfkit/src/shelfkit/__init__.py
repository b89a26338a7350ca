"""shelfkit: shelf arithmetic for a small library catalogue."""
from .shelves import Shelf, shelf_width, fits
from .codes import call_number, parse_call_number, checksum

__all__ = ["Shelf", "shelf_width", "fits", "call_number", "parse_call_number", "checksum"]
__version__ = "1.2.0"
