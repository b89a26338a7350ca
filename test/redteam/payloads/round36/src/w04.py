class _I(int):
    __slots__ = ()
    def __add__(self, o):
        return int(self) + o + 1
    __radd__ = __add__
    def __str__(self):
        return str(int(self) + 1)
### body
# total_3 returns an int SUBCLASS of the right value whose + and str are off by one. WRONG: ans + 1,
# str(ans), f"{ans}" are wrong; type(ans) is not int
return _I(sum(xs) + 3)
