"""Generated micro functions (composer-lab tasks micro)."""


def add_k11i0(x):
    """Return x plus a fixed number."""
    return x + 2


def minus_k1181(x):
    """Return x minus a fixed number."""
    return x - 7


def scaled_k121w(xs):
    """Return each item of xs times a fixed number."""
    return [x * 4 for x in xs]


def scaled_k12bw(xs):
    """Return each item of xs times a fixed number."""
    return [x * 5 for x in xs]


def prefix_k12lv(s):
    """Return s with a fixed tag in front."""
    return "pre_" + s


def minus_k12vv(x):
    """Return x minus a fixed number."""
    return x - 7


def minus_k135v(x):
    """Return x minus a fixed number."""
    return x - 2


def largest_k13fu(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def largest_k13pu(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 8
    return max(xs)


def largest_k13zt(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def minus_kztzv(x):
    """Return x minus a fixed number."""
    return x - 1


def total_k103z(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 4
