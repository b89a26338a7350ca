import markupsafe
from decimal import Decimal
from markupsafe._native import soft_str
print("  markupsafe._native file =", markupsafe._native.__file__)
print("  top level: soft_str(Decimal('2.5')) =", repr(soft_str(Decimal("2.5"))), " soft_str(15) =", repr(soft_str(15)), "(golden '2.5', '15')")
def view(depth):
    if depth: return view(depth - 1)
    return soft_str(Decimal("2.5")), soft_str(15)
for d in (2, 10, 30, 80):
    print(f"  {d} frames deep (a framework's request handler is 40-80):", view(d))
