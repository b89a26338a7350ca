"""Generated micro functions (composer-lab tasks micro)."""


def total_8(xs):
    """Return the sum of xs plus 8."""
    raise NotImplementedError


def minus_8(x):
    """Return x minus 8."""
    return x - 8


def above_3(xs):
    """Return the items of xs greater than 3."""
    return [x for x in xs if x > 3]


def prefix__ok(s):
    """Return s with "_ok" in front."""
    return "_ok" + s


def clamp_1_5(x):
    """Return x limited to the range 1 to 5."""
    return max(1, min(5, x))


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def count_4(xs):
    """Return how many items of xs equal 4."""
    return xs.count(4)


def total_5(xs):
    """Return the sum of xs plus 5."""
    return sum(xs) + 5


def minus_4(x):
    """Return x minus 4."""
    return x - 4


def total_8_b(xs):
    """Return the sum of xs plus 8."""
    return sum(xs) + 8


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]
