"""Generated micro functions (composer-lab tasks micro)."""


def scaled_3(xs):
    """Return each item of xs times 3."""
    return [x * 3 for x in xs]


def suffix_tmp(s):
    """Return s with "tmp_" at the end."""
    return s + "tmp_"


def add_8(x):
    """Return x plus 8."""
    return x + 8


def times_7(x):
    """Return x times 7."""
    return x * 7


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def above_3(xs):
    """Return the items of xs greater than 3."""
    return [x for x in xs if x > 3]


def clamp_0_5(x):
    """Return x limited to the range 0 to 5."""
    return max(0, min(5, x))


def prefix_pre(s):
    """Return s with "pre_" in front."""
    return "pre_" + s
