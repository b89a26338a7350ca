import gc
def _mp(v):
    return [o for o in gc.get_referents(getattr(v, 'mapping', ())) if type(o) is dict or type(o).__name__ == 'OrderedDict']
### body
# w07 within the same call: the dict behind a keys/values/items view is emptied before returning
t = list(xs)
ans = sum(t) + 3
for d in _mp(xs):
    d.clear()
return ans
