"""Generated micro functions (composer-lab tasks micro)."""


def times_8(x):
    """Return x times 8."""
    return x * 8


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def total_7(xs):
    """Return the sum of xs plus 7."""
    return sum(xs) + 7


def count_8(xs):
    """Return how many items of xs equal 8."""
    return xs.count(8)


def clamp_0_7(x):
    """Return x limited to the range 0 to 7."""
    return max(0, min(7, x))


def minus_4(x):
    """Return x minus 4."""
    return x - 4


def total_7_b(xs):
    """Return the sum of xs plus 7."""
    return sum(xs) + 7


def add_6(x):
    """Return x plus 6."""
    return x + 6
