"""Generated micro functions (composer-lab tasks micro)."""


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def scaled_2(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]


def minus_7(x):
    """Return x minus 7."""
    return x - 7


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def largest_4(xs):
    """Return the largest item of xs, or 4 if xs is empty."""
    if not xs:
        return 4
    return max(xs)


def multiple_3(x):
    """Return True if x is a multiple of 3."""
    return x % 3 == 0


def times_8(x):
    """Return x times 8."""
    return x * 8


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def above_5(xs):
    """Return the items of xs greater than 5."""
    return [x for x in xs if x > 5]


def add_4(x):
    """Return x plus 4."""
    return x + 4


def multiple_3_b(x):
    """Return True if x is a multiple of 3."""
    return x % 3 == 0


def largest_2(xs):
    """Return the largest item of xs, or 2 if xs is empty."""
    if not xs:
        return 2
    return max(xs)
