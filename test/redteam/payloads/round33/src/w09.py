import time
_n = [0]
### body
# slow by a MIX: ~7 ms of CPU and a 13 ms sleep a call (CPU about a third of the time, under the pace
# rule's half); WRONG from the process's 6,000th call on (data flow)
_n[0] += 1
w = sum(range(700000)) * 0
time.sleep(0.013)
t = list(xs)
return sum(t) + 3 - min(1, _n[0] // 6000) * (w + sum(t[-1:]))
