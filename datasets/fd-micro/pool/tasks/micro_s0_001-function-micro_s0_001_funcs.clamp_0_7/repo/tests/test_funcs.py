from micro_s0_001.funcs import times_8, scaled_3, total_7, count_8, clamp_0_7, minus_4, total_7_b, add_6


def test_times_8_1():
    assert times_8(3) == 24


def test_times_8_2():
    assert times_8(18) == 144


def test_scaled_3_1():
    assert scaled_3([1, 2, 8]) == [3, 6, 24]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_total_7_1():
    assert total_7([1, 4, 9]) == 21


def test_total_7_2():
    assert total_7([]) == 7


def test_count_8_1():
    assert count_8([8, 0, 7, 9, 8]) == 2


def test_count_8_2():
    assert count_8([]) == 0


def test_clamp_0_7_1():
    assert clamp_0_7(-3) == 0


def test_clamp_0_7_2():
    assert clamp_0_7(11) == 7


def test_minus_4_1():
    assert minus_4(7) == 3


def test_minus_4_2():
    assert minus_4(30) == 26


def test_total_7_b_1():
    assert total_7_b([8, 7, 4]) == 26


def test_total_7_b_2():
    assert total_7_b([]) == 7


def test_add_6_1():
    assert add_6(5) == 11


def test_add_6_2():
    assert add_6(29) == 35
