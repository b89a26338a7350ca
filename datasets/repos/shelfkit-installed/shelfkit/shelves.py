class Shelf:
    def __init__(self, length_mm, books=None):
        self.length_mm = length_mm
        self.books = list(books or [])

    def used(self):
        return shelf_width(self.books)

    def free(self):
        return self.length_mm - self.used()

    def add(self, width_mm):
        if not fits(self, width_mm):
            return False
        self.books.append(width_mm)
        return True


def shelf_width(books):
    return sum(books)


def fits(shelf, width_mm):
    return shelf_width(shelf.books + [width_mm]) <= shelf.length_mm
