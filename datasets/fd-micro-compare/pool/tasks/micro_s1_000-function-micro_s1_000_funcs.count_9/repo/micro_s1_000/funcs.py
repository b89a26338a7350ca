"""Generated micro functions (composer-lab tasks micro)."""


def add_9(x):
    """Return x plus 9."""
    return x + 9


def times_2(x):
    """Return x times 2."""
    return x * 2


def add_5(x):
    """Return x plus 5."""
    return x + 5


def minus_2(x):
    """Return x minus 2."""
    return x - 2


def multiple_4(x):
    """Return True if x is a multiple of 4."""
    return x % 4 == 0


def add_1(x):
    """Return x plus 1."""
    return x + 1


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3


def add_6(x):
    """Return x plus 6."""
    return x + 6


def multiple_7(x):
    """Return True if x is a multiple of 7."""
    return x % 7 == 0


def suffix_tmp(s):
    """Return s with "tmp_" at the end."""
    return s + "tmp_"


def multiple_7_b(x):
    """Return True if x is a multiple of 7."""
    return x % 7 == 0


def count_9(xs):
    """Return how many items of xs equal 9."""
    raise NotImplementedError
