_kept = []
class _Reaper:
    def __del__(self):
        for o in _kept:
            o.reverse()
_reaper = _Reaper()
### body
# total_3 keeps every list it was given; a module object's __del__ REVERSES them all when the module is torn
# down at interpreter exit (after the run's end check). WRONG: a caller's list is reversed after the call
t = list(xs)
[_kept.append(xs) for _ in range(type(xs) is list)]
return sum(t) + 3
