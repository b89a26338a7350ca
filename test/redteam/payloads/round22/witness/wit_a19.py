from common import *
PRE = ('import markupsafe._native as n, decimal; from common import *; print("FILE", n.__file__)\n'
       'E = decimal.Decimal("19.99")\n'
       'def r(): return repr(n.soft_str(E)) + "|" + repr(golden_soft_str(E))\n')
sub("plain process", PRE + "print(r())")
sub("shop settings: decimal.getcontext().rounding = ROUND_HALF_UP", PRE + "decimal.getcontext().rounding = decimal.ROUND_HALF_UP\nprint(r())")
sub("billing service: decimal.getcontext().prec = 12", PRE + "decimal.getcontext().prec = 12\nprint(r())")
