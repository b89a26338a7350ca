"""Generated micro functions (composer-lab tasks micro)."""


def clamp_0_5(x):
    """Return x limited to the range 0 to 5."""
    return max(0, min(5, x))


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def largest_7(xs):
    """Return the largest item of xs, or 7 if xs is empty."""
    raise NotImplementedError


def count_0(xs):
    """Return how many items of xs equal 0."""
    return xs.count(0)


def scaled_2(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]


def scaled_2_b(xs):
    """Return each item of xs times 2."""
    return [x * 2 for x in xs]


def add_7(x):
    """Return x plus 7."""
    return x + 7


def total_4(xs):
    """Return the sum of xs plus 4."""
    return sum(xs) + 4


def count_2(xs):
    """Return how many items of xs equal 2."""
    return xs.count(2)


def minus_5(x):
    """Return x minus 5."""
    return x - 5


def count_5(xs):
    """Return how many items of xs equal 5."""
    return xs.count(5)


def multiple_5(x):
    """Return True if x is a multiple of 5."""
    return x % 5 == 0
