_n = [0]
### body
# probe for w17: answers wrong (99 appended) from the process's 3,000th call on: flagged iff judged calls run there
out = [x * 3 for x in xs]
_n[0] += 1
return out + [99] * min(1, _n[0] // 3000)
