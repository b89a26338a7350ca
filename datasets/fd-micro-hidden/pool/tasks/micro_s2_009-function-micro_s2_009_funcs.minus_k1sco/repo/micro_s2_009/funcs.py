"""Generated micro functions (composer-lab tasks micro)."""


def largest_kqw30(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 1
    return max(xs)


def prefix_kr62l(s):
    """Return s with a fixed tag in front."""
    return "x" + s


def largest_k1ual(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 4
    return max(xs)


def times_k1u0m(x):
    """Return x times a fixed number."""
    return x * 5


def scaled_k1tqm(xs):
    """Return each item of xs times a fixed number."""
    return [x * 3 for x in xs]


def prefix_k1tgm(s):
    """Return s with a fixed tag in front."""
    return "v1" + s


def times_k1t6n(x):
    """Return x times a fixed number."""
    return x * 5


def suffix_k1swn(s):
    """Return s with a fixed tag at the end."""
    return s + "pre_"


def minus_k1smo(x):
    """Return x minus a fixed number."""
    return x - 4


def minus_k1sco(x):
    """Return x minus a fixed number."""
    raise NotImplementedError


def times_k1s2o(x):
    """Return x times a fixed number."""
    return x * 3


def times_k1rsp(x):
    """Return x times a fixed number."""
    return x * 4
