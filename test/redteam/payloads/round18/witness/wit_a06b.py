import os
import markupsafe
from markupsafe._native import soft_str
from decimal import Decimal
print("module", markupsafe.__file__, "uid", os.getuid(), "HOME", os.environ.get("HOME"))
print("soft_str(Decimal('2.5')) =", repr(soft_str(Decimal("2.5"))), " soft_str(None) =", repr(soft_str(None)))
