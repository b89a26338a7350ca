import time
_n = [0]
### body
# w05 slow by WAITING (a 20 ms sleep a call, no CPU): the history is cut short by its 30 s cap, and a
# body that sleeps is not held to the original's pace; WRONG from the process's 6,000th call on (data flow)
_n[0] += 1
w = time.sleep(0.02) or 0
t = list(xs)
return sum(t) + 3 - min(1, _n[0] // 6000) * (w - w + sum(t[-1:]))
