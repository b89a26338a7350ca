"""Generated micro functions (composer-lab tasks micro)."""


def scaled_k5ay4(xs):
    """Return each item of xs times a fixed number."""
    raise NotImplementedError


def times_k50yi(x):
    """Return x times a fixed number."""
    return x * 8


def largest_k4qyw(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 9
    return max(xs)


def largest_k4gzb(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 9
    return max(xs)


def suffix_k46zp(s):
    """Return s with a fixed tag at the end."""
    return s + "_ok"


def total_k3x03(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 1


def times_k4qvr(x):
    """Return x times a fixed number."""
    return x * 9


def minus_k50vd(x):
    """Return x minus a fixed number."""
    return x - 7


def minus_k5auy(x):
    """Return x minus a fixed number."""
    return x - 8


def suffix_k5kuk(s):
    """Return s with a fixed tag at the end."""
    return s + "pre_"


def total_k3mxc(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 6


def add_k3wwy(x):
    """Return x plus a fixed number."""
    return x + 5
