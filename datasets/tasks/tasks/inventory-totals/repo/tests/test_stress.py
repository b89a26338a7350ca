"""A heavier property-style check: many random operation sequences keep the invariants."""
import random

from inventory import Inventory, OutOfStock


def test_random_sequences_keep_invariants():
    rng = random.Random(7)
    for _ in range(2500):
        inv = Inventory({"a": rng.randint(0, 20), "b": rng.randint(0, 20)})
        for _ in range(200):
            sku = rng.choice("ab")
            op = rng.random()
            try:
                if op < 0.4:
                    inv.reserve(sku, rng.randint(1, 5))
                elif op < 0.6:
                    inv.receive(sku, rng.randint(1, 5))
                elif op < 0.8:
                    inv.release(sku, rng.randint(0, 2))
                else:
                    inv.ship(sku, rng.randint(0, 2))
            except (OutOfStock, ValueError):
                pass
            assert 0 <= inv.available(sku) <= inv.level(sku)
