"""Generated micro functions (composer-lab tasks micro)."""


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3


def clamp_1_8(x):
    """Return x limited to the range 1 to 8."""
    return max(1, min(8, x))


def largest_2(xs):
    """Return the largest item of xs, or 2 if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def count_5(xs):
    """Return how many items of xs equal 5."""
    return xs.count(5)


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def add_3(x):
    """Return x plus 3."""
    raise NotImplementedError


def above_3(xs):
    """Return the items of xs greater than 3."""
    return [x for x in xs if x > 3]
