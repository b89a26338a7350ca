from micro_s2_004.funcs import add_k11i0, minus_k1181, scaled_k121w, scaled_k12bw, prefix_k12lv, minus_k12vv, minus_k135v, largest_k13fu, largest_k13pu, largest_k13zt, minus_kztzv, total_k103z


def test_add_k11i0_1():
    assert add_k11i0(0) == 2


def test_add_k11i0_2():
    assert add_k11i0(8) == 10


def test_minus_k1181_1():
    assert minus_k1181(0) == -7


def test_minus_k1181_2():
    assert minus_k1181(1) == -6


def test_scaled_k121w_1():
    assert scaled_k121w([1]) == [4]


def test_scaled_k121w_2():
    assert scaled_k121w([1, 4, 9]) == [4, 16, 36]


def test_scaled_k12bw_1():
    assert scaled_k12bw([1]) == [5]


def test_scaled_k12bw_2():
    assert scaled_k12bw([5, 5, 3]) == [25, 25, 15]


def test_prefix_k12lv_1():
    assert prefix_k12lv("") == "pre_"


def test_prefix_k12lv_2():
    assert prefix_k12lv("map") == "pre_map"


def test_minus_k12vv_1():
    assert minus_k12vv(0) == -7


def test_minus_k12vv_2():
    assert minus_k12vv(6) == -1


def test_minus_k135v_1():
    assert minus_k135v(0) == -2


def test_minus_k135v_2():
    assert minus_k135v(6) == 4


def test_largest_k13fu_1():
    assert largest_k13fu([]) == 6


def test_largest_k13fu_2():
    assert largest_k13fu([3, 6, 7, 3]) == 7


def test_largest_k13pu_1():
    assert largest_k13pu([]) == 8


def test_largest_k13pu_2():
    assert largest_k13pu([6, 3, 7, 5]) == 7


def test_largest_k13zt_1():
    assert largest_k13zt([]) == 2


def test_largest_k13zt_2():
    assert largest_k13zt([4, 4, 2, 3]) == 4


def test_minus_kztzv_1():
    assert minus_kztzv(0) == -1


def test_minus_kztzv_2():
    assert minus_kztzv(1) == 0


def test_total_k103z_1():
    assert total_k103z([]) == 4


def test_total_k103z_2():
    assert total_k103z([4, 4, 4]) == 16
