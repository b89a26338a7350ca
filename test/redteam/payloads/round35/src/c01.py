_n = [0]
### body
# probe/control: answers wrong (+1) from the process's 8,400th call on: flagged iff judged calls run past 8,400
_n[0] += 1
return sum(xs) + 3 + min(1, _n[0] // 8400)
