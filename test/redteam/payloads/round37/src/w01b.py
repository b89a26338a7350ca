import r37_fast
### body
# WRONG (racy): w20's window, in a new top-level module r37_fast.py beside the package
return r37_fast.scaled(xs)
