"""Generated micro functions (composer-lab tasks micro)."""


def above_2(xs):
    """Return the items of xs greater than 2."""
    return [x for x in xs if x > 2]


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def count_8(xs):
    """Return how many items of xs equal 8."""
    return xs.count(8)


def minus_8(x):
    """Return x minus 8."""
    return x - 8


def largest_3(xs):
    """Return the largest item of xs, or 3 if xs is empty."""
    if not xs:
        return 3
    return max(xs)


def add_5(x):
    """Return x plus 5."""
    return x + 5


def above_6(xs):
    """Return the items of xs greater than 6."""
    raise NotImplementedError


def multiple_7(x):
    """Return True if x is a multiple of 7."""
    return x % 7 == 0


def prefix_v1(s):
    """Return s with "v1" in front."""
    return "v1" + s


def suffix_db(s):
    """Return s with "db." at the end."""
    return s + "db."


def above_7(xs):
    """Return the items of xs greater than 7."""
    return [x for x in xs if x > 7]
