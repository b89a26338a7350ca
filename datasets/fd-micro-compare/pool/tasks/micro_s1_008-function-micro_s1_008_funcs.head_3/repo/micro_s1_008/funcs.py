"""Generated micro functions (composer-lab tasks micro)."""


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def count_2(xs):
    """Return how many items of xs equal 2."""
    return xs.count(2)


def suffix_v1(s):
    """Return s with "v1" at the end."""
    return s + "v1"


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def suffix_x(s):
    """Return s with "x" at the end."""
    return s + "x"


def minus_3(x):
    """Return x minus 3."""
    return x - 3


def total_8(xs):
    """Return the sum of xs plus 8."""
    return sum(xs) + 8


def head_3(xs):
    """Return the first 3 items of xs."""
    raise NotImplementedError


def times_5(x):
    """Return x times 5."""
    return x * 5


def times_6(x):
    """Return x times 6."""
    return x * 6


def count_8(xs):
    """Return how many items of xs equal 8."""
    return xs.count(8)


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]
