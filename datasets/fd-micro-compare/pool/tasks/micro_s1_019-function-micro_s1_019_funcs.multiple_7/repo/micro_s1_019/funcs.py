"""Generated micro functions (composer-lab tasks micro)."""


def multiple_7(x):
    """Return True if x is a multiple of 7."""
    raise NotImplementedError


def minus_7(x):
    """Return x minus 7."""
    return x - 7


def above_7(xs):
    """Return the items of xs greater than 7."""
    return [x for x in xs if x > 7]


def clamp_4_9(x):
    """Return x limited to the range 4 to 9."""
    return max(4, min(9, x))


def times_5(x):
    """Return x times 5."""
    return x * 5


def clamp_4_8(x):
    """Return x limited to the range 4 to 8."""
    return max(4, min(8, x))


def multiple_5(x):
    """Return True if x is a multiple of 5."""
    return x % 5 == 0


def prefix_v1(s):
    """Return s with "v1" in front."""
    return "v1" + s


def largest_1(xs):
    """Return the largest item of xs, or 1 if xs is empty."""
    if not xs:
        return 1
    return max(xs)


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def minus_1(x):
    """Return x minus 1."""
    return x - 1
