from micro_s2_008.funcs import suffix_k46wj, largest_k4gw5, total_k2iyx, prefix_k2syj, total_kt3zt, suffix_ktdzf, scaled_ktnz1, minus_ktxym, largest_ks01e, total_ksa10, largest_ksk0m, scaled_ksu08


def test_suffix_k46wj_1():
    assert suffix_k46wj("") == "!"


def test_suffix_k46wj_2():
    assert suffix_k46wj("io") == "io!"


def test_largest_k4gw5_1():
    assert largest_k4gw5([]) == 2


def test_largest_k4gw5_2():
    assert largest_k4gw5([3, 5, 0, 2]) == 5


def test_total_k2iyx_1():
    assert total_k2iyx([]) == 6


def test_total_k2iyx_2():
    assert total_k2iyx([8, 7, 3]) == 24


def test_prefix_k2syj_1():
    assert prefix_k2syj("") == "pre_"


def test_prefix_k2syj_2():
    assert prefix_k2syj("map") == "pre_map"


def test_total_kt3zt_1():
    assert total_kt3zt([]) == 4


def test_total_kt3zt_2():
    assert total_kt3zt([2, 6, 5]) == 17


def test_suffix_ktdzf_1():
    assert suffix_ktdzf("") == "tmp_"


def test_suffix_ktdzf_2():
    assert suffix_ktdzf("xy") == "xytmp_"


def test_scaled_ktnz1_1():
    assert scaled_ktnz1([1]) == [2]


def test_scaled_ktnz1_2():
    assert scaled_ktnz1([5, 3, 0]) == [10, 6, 0]


def test_minus_ktxym_1():
    assert minus_ktxym(0) == -3


def test_minus_ktxym_2():
    assert minus_ktxym(7) == 4


def test_largest_ks01e_1():
    assert largest_ks01e([]) == 4


def test_largest_ks01e_2():
    assert largest_ks01e([3, 1, 6, 8]) == 8


def test_total_ksa10_1():
    assert total_ksa10([]) == 3


def test_total_ksa10_2():
    assert total_ksa10([8, 3, 0]) == 14


def test_largest_ksk0m_1():
    assert largest_ksk0m([]) == 6


def test_largest_ksk0m_2():
    assert largest_ksk0m([5, 9, 5, 9]) == 9


def test_scaled_ksu08_1():
    assert scaled_ksu08([1]) == [5]


def test_scaled_ksu08_2():
    assert scaled_ksu08([6, 0, 7]) == [30, 0, 35]
