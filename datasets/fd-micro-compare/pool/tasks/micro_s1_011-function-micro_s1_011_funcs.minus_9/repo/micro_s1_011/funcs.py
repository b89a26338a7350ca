"""Generated micro functions (composer-lab tasks micro)."""


def count_4(xs):
    """Return how many items of xs equal 4."""
    return xs.count(4)


def add_7(x):
    """Return x plus 7."""
    return x + 7


def multiple_5(x):
    """Return True if x is a multiple of 5."""
    return x % 5 == 0


def prefix_x(s):
    """Return s with "x" in front."""
    return "x" + s


def multiple_6(x):
    """Return True if x is a multiple of 6."""
    return x % 6 == 0


def minus_9(x):
    """Return x minus 9."""
    raise NotImplementedError


def clamp_4_7(x):
    """Return x limited to the range 4 to 7."""
    return max(4, min(7, x))


def add_6(x):
    """Return x plus 6."""
    return x + 6


def total_6(xs):
    """Return the sum of xs plus 6."""
    return sum(xs) + 6


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3


def add_7_b(x):
    """Return x plus 7."""
    return x + 7


def scaled_5(xs):
    """Return each item of xs times 5."""
    return [x * 5 for x in xs]
