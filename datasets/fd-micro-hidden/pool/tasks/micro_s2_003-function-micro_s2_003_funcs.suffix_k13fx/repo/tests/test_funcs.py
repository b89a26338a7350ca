from micro_s2_003.funcs import scaled_k13qf, largest_k140f, suffix_k10yj, suffix_k118j, suffix_k13px, suffix_k13fx, minus_k135y, total_k12vy, prefix_k14tv, suffix_k14jw, largest_k149w, minus_k13zx


def test_scaled_k13qf_1():
    assert scaled_k13qf([1]) == [3]


def test_scaled_k13qf_2():
    assert scaled_k13qf([9, 4, 4]) == [27, 12, 12]


def test_largest_k140f_1():
    assert largest_k140f([]) == 5


def test_largest_k140f_2():
    assert largest_k140f([1, 9, 6, 8]) == 9


def test_suffix_k10yj_1():
    assert suffix_k10yj("") == "pre_"


def test_suffix_k10yj_2():
    assert suffix_k10yj("io") == "iopre_"


def test_suffix_k118j_1():
    assert suffix_k118j("") == "db."


def test_suffix_k118j_2():
    assert suffix_k118j("red") == "reddb."


def test_suffix_k13px_1():
    assert suffix_k13px("") == "v1"


def test_suffix_k13px_2():
    assert suffix_k13px("cat") == "catv1"


def test_suffix_k13fx_1():
    assert suffix_k13fx("") == "!"


def test_suffix_k13fx_2():
    assert suffix_k13fx("cat") == "cat!"


def test_minus_k135y_1():
    assert minus_k135y(0) == -1


def test_minus_k135y_2():
    assert minus_k135y(9) == 8


def test_total_k12vy_1():
    assert total_k12vy([]) == 1


def test_total_k12vy_2():
    assert total_k12vy([0, 7, 0]) == 8


def test_prefix_k14tv_1():
    assert prefix_k14tv("") == "v1"


def test_prefix_k14tv_2():
    assert prefix_k14tv("zen") == "v1zen"


def test_suffix_k14jw_1():
    assert suffix_k14jw("") == "x"


def test_suffix_k14jw_2():
    assert suffix_k14jw("xy") == "xyx"


def test_largest_k149w_1():
    assert largest_k149w([]) == 4


def test_largest_k149w_2():
    assert largest_k149w([1, 9, 2, 2]) == 9


def test_minus_k13zx_1():
    assert minus_k13zx(0) == -9


def test_minus_k13zx_2():
    assert minus_k13zx(4) == -5
