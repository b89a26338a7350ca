"""Generated micro functions (composer-lab tasks micro)."""


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def prefix_tmp(s):
    """Return s with "tmp_" in front."""
    return "tmp_" + s


def total_5(xs):
    """Return the sum of xs plus 5."""
    return sum(xs) + 5


def count_1(xs):
    """Return how many items of xs equal 1."""
    return xs.count(1)


def total_7(xs):
    """Return the sum of xs plus 7."""
    return sum(xs) + 7


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def above_7(xs):
    """Return the items of xs greater than 7."""
    return [x for x in xs if x > 7]


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def largest_9(xs):
    """Return the largest item of xs, or 9 if xs is empty."""
    raise NotImplementedError


def prefix__ok(s):
    """Return s with "_ok" in front."""
    return "_ok" + s


def multiple_4(x):
    """Return True if x is a multiple of 4."""
    return x % 4 == 0


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3
