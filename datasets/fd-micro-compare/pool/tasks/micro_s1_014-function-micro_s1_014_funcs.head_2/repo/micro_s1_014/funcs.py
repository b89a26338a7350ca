"""Generated micro functions (composer-lab tasks micro)."""


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def head_3_b(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def minus_4(x):
    """Return x minus 4."""
    return x - 4


def add_9(x):
    """Return x plus 9."""
    return x + 9


def count_7(xs):
    """Return how many items of xs equal 7."""
    return xs.count(7)


def times_9(x):
    """Return x times 9."""
    return x * 9


def head_2(xs):
    """Return the first 2 items of xs."""
    raise NotImplementedError


def largest_9(xs):
    """Return the largest item of xs, or 9 if xs is empty."""
    if not xs:
        return 9
    return max(xs)


def clamp_0_4(x):
    """Return x limited to the range 0 to 4."""
    return max(0, min(4, x))


def add_2(x):
    """Return x plus 2."""
    return x + 2


def multiple_5(x):
    """Return True if x is a multiple of 5."""
    return x % 5 == 0
