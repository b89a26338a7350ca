class InventoryError(Exception):
    """Base class for inventory errors."""


class UnknownSku(InventoryError, KeyError):
    def __init__(self, sku):
        super().__init__(sku)
        self.sku = sku

    def __str__(self):
        return f"unknown SKU {self.sku!r}"


class OutOfStock(InventoryError):
    def __init__(self, sku, requested, available):
        super().__init__(sku, requested, available)
        self.sku = sku
        self.requested = requested
        self.available = available

    def __str__(self):
        return f"{self.sku}: requested {self.requested}, only {self.available} available"
