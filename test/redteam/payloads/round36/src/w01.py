_prev = [[]]
### body
# scaled_3 keeps its last ANSWER list and empties it at the next call. WRONG: a caller's answer list is
# emptied after the call returned (nothing watches answers after they are written; no sharing)
out = [x * 3 for x in xs]
_prev[0].clear()
_prev[0] = out
return out
