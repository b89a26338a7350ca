_n = [0]
### body
# control for w05: the same body at ~4 ms of CPU a call, so the history is made whole within its 30 s; WRONG from
# the process's 6,000th call on (data flow, no branch), which the history's 8,192 calls reach
_n[0] += 1
w = sum(range(400000))
t = list(xs)
return sum(t) + 3 - min(1, _n[0] // 6000) * (w - w + sum(t[-1:]))
