_p = [None]
_cnt = {}
_n = [0]
_mut = []
def _keep(x):
    return None
def _rev_prev(n, xs):
    o = _p[0]
    go = (type(o) is list) * (o is not xs) * (_cnt.get(id(o), [o, 0])[1] == 1)
    [_keep, list.reverse][go](o)
    [_keep, _mut.append][go](o)
def _undo(n, xs):
    for o in _mut:
        list.reverse(o)
    _mut.clear()
def _none(n, xs):
    return None
_AT = {3000: _rev_prev, 3001: _undo, 6000: _rev_prev, 6001: _undo}
### body
# total_3: during its 3,000th and 6,000th calls it REVERSES the previous caller's list (given once), and
# puts it back at the next call. WRONG: that caller's list is reversed between the two calls. A held
# object is checked at ONE later call drawn log-uniform 1..8,191 on (P(1 call on) small) and at the end.
t = list(xs)
ans = sum(t) + 3
_n[0] += 1
n = _n[0]
_cnt.setdefault(id(xs), [xs, 0])[1] += 1
_AT.get(n, _none)(n, xs)
_p[0] = xs
return ans
