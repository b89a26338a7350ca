"""Generated micro functions (composer-lab tasks micro)."""


def scaled_k13qf(xs):
    """Return each item of xs times a fixed number."""
    return [x * 3 for x in xs]


def largest_k140f(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 5
    return max(xs)


def suffix_k10yj(s):
    """Return s with a fixed tag at the end."""
    return s + "pre_"


def suffix_k118j(s):
    """Return s with a fixed tag at the end."""
    return s + "db."


def suffix_k13px(s):
    """Return s with a fixed tag at the end."""
    return s + "v1"


def suffix_k13fx(s):
    """Return s with a fixed tag at the end."""
    return s + "!"


def minus_k135y(x):
    """Return x minus a fixed number."""
    raise NotImplementedError


def total_k12vy(xs):
    """Return the sum of xs plus a fixed number."""
    return sum(xs) + 1


def prefix_k14tv(s):
    """Return s with a fixed tag in front."""
    return "v1" + s


def suffix_k14jw(s):
    """Return s with a fixed tag at the end."""
    return s + "x"


def largest_k149w(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 4
    return max(xs)


def minus_k13zx(x):
    """Return x minus a fixed number."""
    return x - 9
