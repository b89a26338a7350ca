"""Generated micro functions (composer-lab tasks micro)."""


def scaled_4(xs):
    """Return each item of xs times 4."""
    raise NotImplementedError


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def minus_5(x):
    """Return x minus 5."""
    return x - 5


def count_0(xs):
    """Return how many items of xs equal 0."""
    return xs.count(0)


def suffix_db(s):
    """Return s with "db." at the end."""
    return s + "db."


def minus_1(x):
    """Return x minus 1."""
    return x - 1


def suffix_tmp(s):
    """Return s with "tmp_" at the end."""
    return s + "tmp_"


def suffix_pre(s):
    """Return s with "pre_" at the end."""
    return s + "pre_"


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def times_2(x):
    """Return x times 2."""
    return x * 2


def scaled_2(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]
