from . import _fast
### body
# WRONG (racy): w20's window, in a new module micro_s0_000/_fast.py
return _fast.scaled(xs)
