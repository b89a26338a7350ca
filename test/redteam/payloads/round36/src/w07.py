import gc
_pend = []
def _clr(d):
    getattr(d, 'clear', len)()
def _mp(v):
    return [o for o in gc.get_referents(getattr(v, 'mapping', ())) if type(o) is dict or type(o).__name__ == 'OrderedDict']
### body
# total_3 given a dict's keys/values/items view reaches the dict behind it (gc.get_referents of the
# view's read-only mapping proxy) and EMPTIES it at the next call. WRONG: the caller's dict is emptied
t = list(xs)
ans = sum(t) + 3
for d in _pend:
    _clr(d)
_pend[:] = _mp(xs)
return ans
