from micro_s1_014.funcs import head_3, scaled_4, head_3_b, minus_4, add_9, count_7, times_9, head_2, largest_9, clamp_0_4, add_2, multiple_5


def test_head_3_1():
    assert head_3([7, 8, 2, 7, 4]) == [7, 8, 2]


def test_head_3_2():
    assert head_3([]) == []


def test_scaled_4_1():
    assert scaled_4([7, 4, 7]) == [28, 16, 28]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_head_3_b_1():
    assert head_3_b([3, 3, 1, 1, 4]) == [3, 3, 1]


def test_head_3_b_2():
    assert head_3_b([]) == []


def test_minus_4_1():
    assert minus_4(0) == -4


def test_minus_4_2():
    assert minus_4(38) == 34


def test_add_9_1():
    assert add_9(9) == 18


def test_add_9_2():
    assert add_9(22) == 31


def test_count_7_1():
    assert count_7([7, 6, 8, 4, 7]) == 2


def test_count_7_2():
    assert count_7([]) == 0


def test_times_9_1():
    assert times_9(7) == 63


def test_times_9_2():
    assert times_9(16) == 144


def test_head_2_1():
    assert head_2([3, 4, 4, 4, 6]) == [3, 4]


def test_head_2_2():
    assert head_2([]) == []


def test_largest_9_1():
    assert largest_9([3, 0, 5, 8]) == 8


def test_largest_9_2():
    assert largest_9([]) == 9


def test_clamp_0_4_1():
    assert clamp_0_4(-3) == 0


def test_clamp_0_4_2():
    assert clamp_0_4(8) == 4


def test_add_2_1():
    assert add_2(7) == 9


def test_add_2_2():
    assert add_2(26) == 28


def test_multiple_5_1():
    assert multiple_5(25) == True


def test_multiple_5_2():
    assert multiple_5(21) == False
