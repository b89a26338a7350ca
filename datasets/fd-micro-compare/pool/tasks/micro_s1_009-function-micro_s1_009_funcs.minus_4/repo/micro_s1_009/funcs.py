"""Generated micro functions (composer-lab tasks micro)."""


def scaled_4(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def head_2(xs):
    """Return the first 2 items of xs."""
    return xs[:2]


def total_1(xs):
    """Return the sum of xs plus 1."""
    return sum(xs) + 1


def largest_6(xs):
    """Return the largest item of xs, or 6 if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def largest_2(xs):
    """Return the largest item of xs, or 2 if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def scaled_4_b(xs):
    """Return each item of xs times 4."""
    return [x * 4 for x in xs]


def clamp_1_7(x):
    """Return x limited to the range 1 to 7."""
    return max(1, min(7, x))


def minus_4(x):
    """Return x minus 4."""
    raise NotImplementedError


def largest_1(xs):
    """Return the largest item of xs, or 1 if xs is empty."""
    if not xs:
        return 1
    return max(xs)


def clamp_3_6(x):
    """Return x limited to the range 3 to 6."""
    return max(3, min(6, x))


def times_5(x):
    """Return x times 5."""
    return x * 5


def total_3(xs):
    """Return the sum of xs plus 3."""
    return sum(xs) + 3
