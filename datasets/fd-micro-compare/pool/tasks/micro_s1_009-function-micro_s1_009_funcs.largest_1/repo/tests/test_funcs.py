from micro_s1_009.funcs import scaled_4, head_2, total_1, largest_6, largest_2, scaled_4_b, clamp_1_7, minus_4, largest_1, clamp_3_6, times_5, total_3


def test_scaled_4_1():
    assert scaled_4([9, 7, 5]) == [36, 28, 20]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_head_2_1():
    assert head_2([4, 1, 6, 4, 1]) == [4, 1]


def test_head_2_2():
    assert head_2([]) == []


def test_total_1_1():
    assert total_1([3, 3, 4]) == 11


def test_total_1_2():
    assert total_1([]) == 1


def test_largest_6_1():
    assert largest_6([5, 7, 4, 6]) == 7


def test_largest_6_2():
    assert largest_6([]) == 6


def test_largest_2_1():
    assert largest_2([9, 5, 0, 1]) == 9


def test_largest_2_2():
    assert largest_2([]) == 2


def test_scaled_4_b_1():
    assert scaled_4_b([3, 1, 4]) == [12, 4, 16]


def test_scaled_4_b_2():
    assert scaled_4_b([]) == []


def test_clamp_1_7_1():
    assert clamp_1_7(-2) == 1


def test_clamp_1_7_2():
    assert clamp_1_7(11) == 7


def test_minus_4_1():
    assert minus_4(0) == -4


def test_minus_4_2():
    assert minus_4(13) == 9


def test_largest_1_1():
    assert largest_1([3, 4, 9, 4]) == 9


def test_largest_1_2():
    assert largest_1([]) == 1


def test_clamp_3_6_1():
    assert clamp_3_6(0) == 3


def test_clamp_3_6_2():
    assert clamp_3_6(10) == 6


def test_times_5_1():
    assert times_5(7) == 35


def test_times_5_2():
    assert times_5(13) == 65


def test_total_3_1():
    assert total_3([7, 5, 2]) == 17


def test_total_3_2():
    assert total_3([]) == 3
