"""Generated micro functions (composer-lab tasks micro)."""


def add_9(x):
    """Return x plus 9."""
    return x + 9


def prefix_v(s):
    """Return s with "!" in front."""
    return "!" + s


def clamp_5_13(x):
    """Return x limited to the range 5 to 13."""
    return max(5, min(13, x))


def clamp_0_9(x):
    """Return x limited to the range 0 to 9."""
    return max(0, min(9, x))


def multiple_5(x):
    """Return True if x is a multiple of 5."""
    return x % 5 == 0


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def add_4(x):
    """Return x plus 4."""
    return x + 4


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]


def multiple_2(x):
    """Return True if x is a multiple of 2."""
    return x % 2 == 0


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3
