"""Generated micro functions (composer-lab tasks micro)."""


def times_9(x):
    """Return x times 9."""
    return x * 9


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]


def minus_7(x):
    """Return x minus 7."""
    return x - 7


def prefix_pre(s):
    """Return s with "pre_" in front."""
    raise NotImplementedError


def prefix_x(s):
    """Return s with "x" in front."""
    return "x" + s


def suffix_pre(s):
    """Return s with "pre_" at the end."""
    return s + "pre_"


def times_7(x):
    """Return x times 7."""
    return x * 7


def add_4(x):
    """Return x plus 4."""
    return x + 4


def above_5(xs):
    """Return the items of xs greater than 5."""
    return [x for x in xs if x > 5]


def count_6(xs):
    """Return how many items of xs equal 6."""
    return xs.count(6)


def scaled_2(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]


def largest_1(xs):
    """Return the largest item of xs, or 1 if xs is empty."""
    if not xs:
        return 1
    return max(xs)
