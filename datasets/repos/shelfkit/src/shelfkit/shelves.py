"""Shelves hold books side by side; widths in millimetres."""
from dataclasses import dataclass, field

GAP_MM = 2  # air between two books


@dataclass
class Shelf:
    """A shelf of a given length."""

    length_mm: int
    books: list[int] = field(default_factory=list)

    def used(self) -> int:
        """Millimetres taken, gaps included."""
        return shelf_width(self.books)

    def free(self) -> int:
        """Millimetres left."""
        return self.length_mm - self.used()

    def add(self, width_mm: int) -> bool:
        """Puts a book on the shelf if it fits; says whether it did."""
        if not fits(self, width_mm):
            return False
        self.books.append(width_mm)
        return True


def _gaps(n: int) -> int:
    return GAP_MM * max(0, n - 1)


def shelf_width(books: list[int]) -> int:
    """Total width of books standing side by side, with a gap between neighbours."""
    if any(w <= 0 for w in books):
        raise ValueError("a book has a positive width")
    return sum(books) + _gaps(len(books))


def fits(shelf: Shelf, width_mm: int) -> bool:
    """Whether one more book of this width fits on the shelf."""
    return shelf_width(shelf.books + [width_mm]) <= shelf.length_mm
