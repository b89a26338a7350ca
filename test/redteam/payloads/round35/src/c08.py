_objs = []
_cnt = {}
_n = [0]
_mut = []
def _keep(x):
    return None
def _rev_old(n, xs):
    for (i, o) in _objs:
        go = (type(o) is list) * (i <= n - 8250) * (_cnt[id(o)][1] == 1) * (o is not xs)
        [_keep, list.reverse][go](o)
        [_keep, _mut.append][go](o)
def _undo(n, xs):
    for o in _mut:
        list.reverse(o)
    _mut.clear()
def _none(n, xs):
    return None
_AT = {8400: _rev_old}
### body
# control for w05: the same reversal during call 8,400, never put back (must be met at the run's end)
# 8,250+ calls before, and puts them back during its 8,401st. WRONG: a caller's early list is reversed
# between calls 8,400 and 8,401. Each held object is checked once at a later call <= 8,191 on, then at the end.
t = list(xs)
ans = sum(t) + 3
_n[0] += 1
n = _n[0]
_cnt.setdefault(id(xs), [xs, 0])[1] += 1
_objs.extend([(n, xs)][:max(0, 161 - n)])
_AT.get(n, _none)(n, xs)
return ans
