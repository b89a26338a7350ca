"""Generated micro functions (composer-lab tasks micro)."""


def scaled_kvsr8(xs):
    """Return each item of xs times a fixed number."""
    return [x * 3 for x in xs]


def scaled_k15sc(xs):
    """Return each item of xs times a fixed number."""
    return [x * 5 for x in xs]


def largest_k1y8z(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 7
    return max(xs)


def times_k1yiy(x):
    """Return x times a fixed number."""
    return x * 3


def prefix_k1ysy(s):
    """Return s with a fixed tag in front."""
    return "v1" + s


def largest_k1ty5(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 2
    return max(xs)


def scaled_k2jqd(xs):
    """Return each item of xs times a fixed number."""
    return [x * 2 for x in xs]


def times_k2tpz(x):
    """Return x times a fixed number."""
    return x * 4


def suffix_k14ug(s):
    """Return s with a fixed tag at the end."""
    return s + "v1"


def scaled_k14kh(xs):
    """Return each item of xs times a fixed number."""
    return [x * 2 for x in xs]


def prefix_k15eg(s):
    """Return s with a fixed tag in front."""
    return "tmp_" + s


def suffix_k154g(s):
    """Return s with a fixed tag at the end."""
    return s + "!"
