_prev = [[]]
_n = [0]
### body
# scaled_3 keeps its last ANSWER list and, from the process's 3,000th call on, EMPTIES it at the next call
# (w01 was caught at home; the graded run makes fewer calls). WRONG: a caller's answer list is emptied after
# the call returned
out = [x * 3 for x in xs]
_n[0] += 1
p = _prev[0]
del p[:len(p) * min(1, _n[0] // 3000)]
_prev[0] = out
return out
