"""Generated micro functions (composer-lab tasks micro)."""


def add_k1xow(x):
    """Return x plus a fixed number."""
    return x + 2


def minus_k1xex(x):
    """Return x minus a fixed number."""
    return x - 9


def suffix_k1y8w(s):
    """Return s with a fixed tag at the end."""
    return s + "x"


def prefix_k1xyw(s):
    """Return s with a fixed tag in front."""
    return "!" + s


def largest_k1ysv(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 7
    return max(xs)


def largest_k1yiv(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 6
    return max(xs)


def times_kbqec(x):
    """Return x times a fixed number."""
    return x * 3


def prefix_k1qsn(s):
    """Return s with a fixed tag in front."""
    return "tmp_" + s


def suffix_kvplq(s):
    """Return s with a fixed tag at the end."""
    return s + "tmp_"


def total_klq01(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 5


def largest_k15dy(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 8
    return max(xs)


def prefix_k15nx(s):
    """Return s with a fixed tag in front."""
    raise NotImplementedError
