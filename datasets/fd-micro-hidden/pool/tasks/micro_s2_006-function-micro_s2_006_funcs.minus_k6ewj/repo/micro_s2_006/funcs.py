"""Generated micro functions (composer-lab tasks micro)."""


def total_k14tz(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 5


def prefix_k153y(s):
    """Return s with a fixed tag in front."""
    return "_ok" + s


def largest_k149z(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 7
    return max(xs)


def add_k14jz(x):
    """Return x plus a fixed number."""
    return x + 4


def total_k13q0(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 5


def largest_k1400(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 8
    return max(xs)


def largest_k1361(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def add_k13g1(x):
    """Return x plus a fixed number."""
    return x + 2


def minus_k6ewj(x):
    """Return x minus a fixed number."""
    raise NotImplementedError


def minus_k64wx(x):
    """Return x minus a fixed number."""
    return x - 3


def prefix_k5uxb(s):
    """Return s with a fixed tag in front."""
    return "db." + s


def scaled_k5kxp(xs):
    """Return each item of xs times a fixed number."""
    return [x * 4 for x in xs]
