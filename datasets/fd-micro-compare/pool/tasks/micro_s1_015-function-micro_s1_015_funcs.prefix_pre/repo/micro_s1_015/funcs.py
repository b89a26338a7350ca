"""Generated micro functions (composer-lab tasks micro)."""


def suffix_v(s):
    """Return s with "!" at the end."""
    return s + "!"


def minus_6(x):
    """Return x minus 6."""
    return x - 6


def largest_9(xs):
    """Return the largest item of xs, or 9 if xs is empty."""
    if not xs:
        return 9
    return max(xs)


def clamp_0_7(x):
    """Return x limited to the range 0 to 7."""
    return max(0, min(7, x))


def prefix_pre(s):
    """Return s with "pre_" in front."""
    raise NotImplementedError


def suffix_v1(s):
    """Return s with "v1" at the end."""
    return s + "v1"


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3


def times_4(x):
    """Return x times 4."""
    return x * 4


def times_7(x):
    """Return x times 7."""
    return x * 7


def count_5(xs):
    """Return how many items of xs equal 5."""
    return xs.count(5)


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def scaled_5(xs):
    """Return each item of xs times 5."""
    return [x * 5 for x in xs]
