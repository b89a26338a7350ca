"""Generated micro functions (composer-lab tasks micro)."""


def times_khra6(x):
    """Return x times a fixed number."""
    return x * 7


def suffix_khhal(s):
    """Return s with a fixed tag at the end."""
    return s + "tmp_"


def suffix_kib9e(s):
    """Return s with a fixed tag at the end."""
    return s + "x"


def minus_ki19s(x):
    """Return x minus a fixed number."""
    return x - 8


def total_kgnbr(xs):
    """Return the sum of xs plus a fixed number."""
    raise NotImplementedError


def add_kgdc6(x):
    """Return x plus a fixed number."""
    return x + 2


def minus_kh7az(x):
    """Return x minus a fixed number."""
    return x - 2


def suffix_kgxbd(s):
    """Return s with a fixed tag at the end."""
    return s + "db."


def add_kfjdd(x):
    """Return x plus a fixed number."""
    return x + 8


def suffix_kf9dr(s):
    """Return s with a fixed tag at the end."""
    return s + "v1"


def prefix_kbtju(s):
    """Return s with a fixed tag in front."""
    return "db." + s


def times_klt5j(x):
    """Return x times a fixed number."""
    return x * 9
