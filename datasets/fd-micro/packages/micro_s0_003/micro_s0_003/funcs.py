"""Generated micro functions (composer-lab tasks micro)."""


def prefix_x(s):
    """Return s with "x" in front."""
    return "x" + s


def times_2(x):
    """Return x times 2."""
    return x * 2


def add_6(x):
    """Return x plus 6."""
    return x + 6


def minus_5(x):
    """Return x minus 5."""
    return x - 5


def minus_1(x):
    """Return x minus 1."""
    return x - 1


def add_8(x):
    """Return x plus 8."""
    return x + 8


def add_9(x):
    """Return x plus 9."""
    return x + 9


def count_4(xs):
    """Return how many items of xs equal 4."""
    return xs.count(4)
