from micro_s1_003.funcs import count_1, largest_2, clamp_1_5, above_6, scaled_2, scaled_4, minus_5, scaled_4_b, times_2, minus_7, scaled_4_b_b, count_4


def test_count_1_1():
    assert count_1([1, 9, 4, 2, 1]) == 2


def test_count_1_2():
    assert count_1([]) == 0


def test_largest_2_1():
    assert largest_2([8, 7, 8, 0]) == 8


def test_largest_2_2():
    assert largest_2([]) == 2


def test_clamp_1_5_1():
    assert clamp_1_5(-2) == 1


def test_clamp_1_5_2():
    assert clamp_1_5(9) == 5


def test_above_6_1():
    assert above_6([7, 7, 1, 6, 7]) == [7, 7, 7]


def test_above_6_2():
    assert above_6([]) == []


def test_scaled_2_1():
    assert scaled_2([3, 9, 5]) == [6, 18, 10]


def test_scaled_2_2():
    assert scaled_2([]) == []


def test_scaled_4_1():
    assert scaled_4([0, 7, 6]) == [0, 28, 24]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_minus_5_1():
    assert minus_5(9) == 4


def test_minus_5_2():
    assert minus_5(13) == 8


def test_scaled_4_b_1():
    assert scaled_4_b([2, 4, 2]) == [8, 16, 8]


def test_scaled_4_b_2():
    assert scaled_4_b([]) == []


def test_times_2_1():
    assert times_2(3) == 6


def test_times_2_2():
    assert times_2(18) == 36


def test_minus_7_1():
    assert minus_7(1) == -6


def test_minus_7_2():
    assert minus_7(30) == 23


def test_scaled_4_b_b_1():
    assert scaled_4_b_b([1, 1, 3]) == [4, 4, 12]


def test_scaled_4_b_b_2():
    assert scaled_4_b_b([]) == []


def test_count_4_1():
    assert count_4([4, 0, 5, 2, 4]) == 2


def test_count_4_2():
    assert count_4([]) == 0
