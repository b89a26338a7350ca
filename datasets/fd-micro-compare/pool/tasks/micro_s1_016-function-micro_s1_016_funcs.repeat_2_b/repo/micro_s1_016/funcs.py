"""Generated micro functions (composer-lab tasks micro)."""


def repeat_2(s):
    """Return the string s repeated 2 times."""
    return s * 2


def total_1(xs):
    """Return the sum of xs plus 1."""
    return sum(xs) + 1


def clamp_3_8(x):
    """Return x limited to the range 3 to 8."""
    return max(3, min(8, x))


def above_4(xs):
    """Return the items of xs greater than 4."""
    return [x for x in xs if x > 4]


def head_3(xs):
    """Return the first 3 items of xs."""
    return xs[:3]


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3


def count_7(xs):
    """Return how many items of xs equal 7."""
    return xs.count(7)


def clamp_4_11(x):
    """Return x limited to the range 4 to 11."""
    return max(4, min(11, x))


def count_6(xs):
    """Return how many items of xs equal 6."""
    return xs.count(6)


def repeat_2_b(s):
    """Return the string s repeated 2 times."""
    raise NotImplementedError


def times_2(x):
    """Return x times 2."""
    return x * 2


def times_9(x):
    """Return x times 9."""
    return x * 9
