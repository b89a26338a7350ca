from micro_s1_005.funcs import total_8, minus_8, above_3, prefix__ok, clamp_1_5, total_3, scaled_3, count_4, total_5, minus_4, total_8_b, scaled_4


def test_total_8_1():
    assert total_8([1, 5, 7]) == 21


def test_total_8_2():
    assert total_8([]) == 8


def test_minus_8_1():
    assert minus_8(8) == 0


def test_minus_8_2():
    assert minus_8(37) == 29


def test_above_3_1():
    assert above_3([5, 6, 8, 1, 0]) == [5, 6, 8]


def test_above_3_2():
    assert above_3([]) == []


def test_prefix__ok_1():
    assert prefix__ok("zen") == "_okzen"


def test_prefix__ok_2():
    assert prefix__ok("") == "_ok"


def test_clamp_1_5_1():
    assert clamp_1_5(-2) == 1


def test_clamp_1_5_2():
    assert clamp_1_5(9) == 5


def test_total_3_1():
    assert total_3([7, 1, 3]) == 14


def test_total_3_2():
    assert total_3([]) == 3


def test_scaled_3_1():
    assert scaled_3([3, 2, 8]) == [9, 6, 24]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_count_4_1():
    assert count_4([4, 0, 4, 5, 4]) == 3


def test_count_4_2():
    assert count_4([]) == 0


def test_total_5_1():
    assert total_5([7, 9, 9]) == 30


def test_total_5_2():
    assert total_5([]) == 5


def test_minus_4_1():
    assert minus_4(0) == -4


def test_minus_4_2():
    assert minus_4(22) == 18


def test_total_8_b_1():
    assert total_8_b([1, 6, 0]) == 15


def test_total_8_b_2():
    assert total_8_b([]) == 8


def test_scaled_4_1():
    assert scaled_4([6, 6, 5]) == [24, 24, 20]


def test_scaled_4_2():
    assert scaled_4([]) == []
