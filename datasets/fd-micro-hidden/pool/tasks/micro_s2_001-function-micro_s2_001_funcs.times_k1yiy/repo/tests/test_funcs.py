from micro_s2_001.funcs import scaled_kvsr8, scaled_k15sc, largest_k1y8z, times_k1yiy, prefix_k1ysy, largest_k1ty5, scaled_k2jqd, times_k2tpz, suffix_k14ug, scaled_k14kh, prefix_k15eg, suffix_k154g


def test_scaled_kvsr8_1():
    assert scaled_kvsr8([1]) == [3]


def test_scaled_kvsr8_2():
    assert scaled_kvsr8([3, 9, 4]) == [9, 27, 12]


def test_scaled_k15sc_1():
    assert scaled_k15sc([1]) == [5]


def test_scaled_k15sc_2():
    assert scaled_k15sc([7, 9, 6]) == [35, 45, 30]


def test_largest_k1y8z_1():
    assert largest_k1y8z([]) == 7


def test_largest_k1y8z_2():
    assert largest_k1y8z([7, 9, 7, 8]) == 9


def test_times_k1yiy_1():
    assert times_k1yiy(1) == 3


def test_times_k1yiy_2():
    assert times_k1yiy(3) == 9


def test_prefix_k1ysy_1():
    assert prefix_k1ysy("") == "v1"


def test_prefix_k1ysy_2():
    assert prefix_k1ysy("cat") == "v1cat"


def test_largest_k1ty5_1():
    assert largest_k1ty5([]) == 2


def test_largest_k1ty5_2():
    assert largest_k1ty5([5, 3, 0, 5]) == 5


def test_scaled_k2jqd_1():
    assert scaled_k2jqd([1]) == [2]


def test_scaled_k2jqd_2():
    assert scaled_k2jqd([6, 4, 7]) == [12, 8, 14]


def test_times_k2tpz_1():
    assert times_k2tpz(1) == 4


def test_times_k2tpz_2():
    assert times_k2tpz(7) == 28


def test_suffix_k14ug_1():
    assert suffix_k14ug("") == "v1"


def test_suffix_k14ug_2():
    assert suffix_k14ug("ab") == "abv1"


def test_scaled_k14kh_1():
    assert scaled_k14kh([1]) == [2]


def test_scaled_k14kh_2():
    assert scaled_k14kh([1, 6, 3]) == [2, 12, 6]


def test_prefix_k15eg_1():
    assert prefix_k15eg("") == "tmp_"


def test_prefix_k15eg_2():
    assert prefix_k15eg("ab") == "tmp_ab"


def test_suffix_k154g_1():
    assert suffix_k154g("") == "!"


def test_suffix_k154g_2():
    assert suffix_k154g("xy") == "xy!"
