"""Generated micro functions (composer-lab tasks micro)."""


def minus_k13qi(x):
    """Return x minus a fixed number."""
    return x - 8


def scaled_k13gi(xs):
    """Return each item of xs times a fixed number."""
    return [x * 4 for x in xs]


def largest_k14ah(xs):
    """Return the largest item of xs, or a fixed default if xs is empty."""
    if not xs:
        return 4
    return max(xs)


def suffix_k140i(s):
    """Return s with a fixed tag at the end."""
    return s + "v1"


def add_k12mk(x):
    """Return x plus a fixed number."""
    return x + 2


def times_k12ck(x):
    """Return x times a fixed number."""
    return x * 8


def minus_k136g(x):
    """Return x minus a fixed number."""
    raise NotImplementedError


def add_k13gf(x):
    """Return x plus a fixed number."""
    return x + 4


def suffix_k12mh(s):
    """Return s with a fixed tag at the end."""
    return s + "x"


def suffix_k12wg(s):
    """Return s with a fixed tag at the end."""
    return s + "_ok"


def times_k14ae(x):
    """Return x times a fixed number."""
    return x * 5


def minus_k14ke(x):
    """Return x minus a fixed number."""
    return x - 5
