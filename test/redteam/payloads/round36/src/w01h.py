_prev = [[]]
def _nop(x):
    return None
### body
# head_1 keeps its last ANSWER list and appends 99 to it at the next call. WRONG: a caller's answer
# grows after the call returned
out = xs[:1]
getattr(_prev[0], 'append', _nop)(99)
_prev[0] = out
return out
