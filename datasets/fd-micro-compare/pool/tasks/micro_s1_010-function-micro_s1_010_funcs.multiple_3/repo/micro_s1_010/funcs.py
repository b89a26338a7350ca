"""Generated micro functions (composer-lab tasks micro)."""


def add_6(x):
    """Return x plus 6."""
    return x + 6


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3


def times_3(x):
    """Return x times 3."""
    return x * 3


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def minus_8(x):
    """Return x minus 8."""
    return x - 8


def total_1(xs):
    """Return the sum of xs plus 1."""
    return sum(xs) + 1


def suffix_v1(s):
    """Return s with "v1" at the end."""
    return s + "v1"


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]


def minus_8_b(x):
    """Return x minus 8."""
    return x - 8


def multiple_3(x):
    """Return True if x is a multiple of 3."""
    raise NotImplementedError


def times_4(x):
    """Return x times 4."""
    return x * 4


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3
