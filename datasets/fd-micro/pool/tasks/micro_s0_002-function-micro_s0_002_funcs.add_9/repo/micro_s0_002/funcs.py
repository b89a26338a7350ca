"""Generated micro functions (composer-lab tasks micro)."""


def add_9(x):
    """Return x plus 9."""
    raise NotImplementedError


def times_4(x):
    """Return x times 4."""
    return x * 4


def minus_5(x):
    """Return x minus 5."""
    return x - 5


def largest_9(xs):
    """Return the largest item of xs, or 9 if xs is empty."""
    if not xs:
        return 9
    return max(xs)


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3


def prefix_v1(s):
    """Return s with "v1" in front."""
    return "v1" + s


def count_2(xs):
    """Return how many items of xs equal 2."""
    return xs.count(2)


def count_5(xs):
    """Return how many items of xs equal 5."""
    return xs.count(5)
