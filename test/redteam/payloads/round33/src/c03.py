import threading
_n = [0]
### body
# control for w09: ~14 ms of CPU a call burnt in ANOTHER thread the body starts and joins (the main thread
# only waits); the docs count the body's other threads' CPU, so the pace rule should hold it.
# WRONG from the process's 6,000th call on (data flow)
_n[0] += 1
th = threading.Thread(target=sum, args=(range(1400000),))
th.start()
th.join()
t = list(xs)
return sum(t) + 3 - min(1, _n[0] // 6000) * sum(t[-1:])
