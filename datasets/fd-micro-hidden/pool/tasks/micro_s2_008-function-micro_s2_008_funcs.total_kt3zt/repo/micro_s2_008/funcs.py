"""Generated micro functions (composer-lab tasks micro)."""


def suffix_k46wj(s):
    """Return s with a fixed tag at the end."""
    return s + "!"


def largest_k4gw5(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def total_k2iyx(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 6


def prefix_k2syj(s):
    """Return s with a fixed tag in front."""
    return "pre_" + s


def total_kt3zt(xs):
    """Return the sum of xs plus a fixed number."""
    raise NotImplementedError


def suffix_ktdzf(s):
    """Return s with a fixed tag at the end."""
    return s + "tmp_"


def scaled_ktnz1(xs):
    """Return each item of xs times a fixed number."""
    return [x * 2 for x in xs]


def minus_ktxym(x):
    """Return x minus a fixed number."""
    return x - 3


def largest_ks01e(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 4
    return max(xs)


def total_ksa10(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 3


def largest_ksk0m(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def scaled_ksu08(xs):
    """Return each item of xs times a fixed number."""
    return [x * 5 for x in xs]
