"""Generated micro functions (composer-lab tasks micro)."""


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def prefix_pre(s):
    """Return s with "pre_" in front."""
    raise NotImplementedError


def add_2(x):
    """Return x plus 2."""
    return x + 2


def repeat_3(s):
    """Return the string s repeated 3 times."""
    return s * 3


def scaled_4_b(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def repeat_4(s):
    """Return the string s repeated 4 times."""
    return s * 4


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]


def clamp_1_8(x):
    """Return x limited to the range 1 to 8."""
    return max(1, min(8, x))
