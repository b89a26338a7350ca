"""Generated micro functions (composer-lab tasks micro)."""


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def count_2(xs):
    """Return how many items of xs equal 2."""
    raise NotImplementedError


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3


def add_3(x):
    """Return x plus 3."""
    return x + 3


def minus_3(x):
    """Return x minus 3."""
    return x - 3


def repeat_3_b(s):
    """Return the string s repeated 3 times."""
    return s * 3


def times_2(x):
    """Return x times 2."""
    return x * 2


def repeat_3_b_b(s):
    """Return the string s repeated 3 times."""
    return s * 3


def total_8(xs):
    """Return the sum of xs plus 8."""
    return sum(xs) + 8


def above_3(xs):
    """Return the items of xs greater than 3."""
    return [x for x in xs if x > 3]


def head_1(xs):
    """Return the first 1 items of xs."""
    return xs[:1]


def minus_1(x):
    """Return x minus 1."""
    return x - 1
