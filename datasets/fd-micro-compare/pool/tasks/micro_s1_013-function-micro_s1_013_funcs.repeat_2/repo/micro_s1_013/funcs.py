"""Generated micro functions (composer-lab tasks micro)."""


def repeat_2(s):
    """Return the string s repeated 2 times."""
    raise NotImplementedError


def prefix_pre(s):
    """Return s with "pre_" in front."""
    return "pre_" + s


def prefix_v1(s):
    """Return s with "v1" in front."""
    return "v1" + s


def above_2(xs):
    """Return the items of xs greater than 2."""
    return [x for x in xs if x > 2]


def clamp_1_9(x):
    """Return x limited to the range 1 to 9."""
    return max(1, min(9, x))


def times_7(x):
    """Return x times 7."""
    return x * 7


def total_6(xs):
    """Return the sum of xs plus 6."""
    return sum(xs) + 6


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def suffix_x(s):
    """Return s with "x" at the end."""
    return s + "x"


def times_8(x):
    """Return x times 8."""
    return x * 8


def add_2(x):
    """Return x plus 2."""
    return x + 2


def add_5(x):
    """Return x plus 5."""
    return x + 5
