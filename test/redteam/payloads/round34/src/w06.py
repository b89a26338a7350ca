_out = []
### body
# scaled_3 writes into ONE module output buffer and returns it (no allocation a call).
# WRONG: a caller's earlier result changes when it calls again (r1 becomes r2)
_out[:] = [x * 3 for x in xs]
return _out
