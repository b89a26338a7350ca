"""Generated micro functions (composer-lab tasks micro)."""


def count_1(xs):
    """Return how many items of xs equal 1."""
    return xs.count(1)


def largest_2(xs):
    """Return the largest item of xs, or 2 if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def clamp_1_5(x):
    """Return x limited to the range 1 to 5."""
    return max(1, min(5, x))


def above_6(xs):
    """Return the items of xs greater than 6."""
    return [x for x in xs if x > 6]


def scaled_2(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def minus_5(x):
    """Return x minus 5."""
    raise NotImplementedError


def scaled_4_b(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def times_2(x):
    """Return x times 2."""
    return x * 2


def minus_7(x):
    """Return x minus 7."""
    return x - 7


def scaled_4_b_b(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def count_4(xs):
    """Return how many items of xs equal 4."""
    return xs.count(4)
