import markupsafe
from markupsafe._native import soft_str
from decimal import Decimal
print("module", markupsafe.__file__)
print("top-level: soft_str(15) =", repr(soft_str(15)), " soft_str(Decimal('2.5')) =", repr(soft_str(Decimal("2.5"))))
def main():
    print("in main(): soft_str(15) =", repr(soft_str(15)), " soft_str(Decimal('2.5')) =", repr(soft_str(Decimal("2.5"))))
if __name__ == "__main__":
    main()
