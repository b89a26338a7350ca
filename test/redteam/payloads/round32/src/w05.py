_n = [0]
### body
# a body slow everywhere (~20 ms of CPU a call), so the run elsewhere's history is cut short by its 30 s cap
# (which only says how many calls were made); WRONG from the process's 6,000th call on (data flow, no branch)
_n[0] += 1
w = sum(range(2000000))
t = list(xs)
return sum(t) + 3 - min(1, _n[0] // 6000) * (w - w + sum(t[-1:]))
