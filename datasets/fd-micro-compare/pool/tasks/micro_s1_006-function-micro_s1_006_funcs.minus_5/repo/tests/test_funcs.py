from micro_s1_006.funcs import clamp_0_5, head_3, largest_7, count_0, scaled_2, scaled_2_b, add_7, total_4, count_2, minus_5, count_5, multiple_5


def test_clamp_0_5_1():
    assert clamp_0_5(-3) == 0


def test_clamp_0_5_2():
    assert clamp_0_5(9) == 5


def test_head_3_1():
    assert head_3([4, 5, 2, 2, 4]) == [4, 5, 2]


def test_head_3_2():
    assert head_3([]) == []


def test_largest_7_1():
    assert largest_7([6, 8, 3, 0]) == 8


def test_largest_7_2():
    assert largest_7([]) == 7


def test_count_0_1():
    assert count_0([0, 0, 7, 7, 0]) == 3


def test_count_0_2():
    assert count_0([]) == 0


def test_scaled_2_1():
    assert scaled_2([0, 9, 2]) == [0, 18, 4]


def test_scaled_2_2():
    assert scaled_2([]) == []


def test_scaled_2_b_1():
    assert scaled_2_b([1, 5, 3]) == [2, 10, 6]


def test_scaled_2_b_2():
    assert scaled_2_b([]) == []


def test_add_7_1():
    assert add_7(1) == 8


def test_add_7_2():
    assert add_7(38) == 45


def test_total_4_1():
    assert total_4([1, 0, 7]) == 12


def test_total_4_2():
    assert total_4([]) == 4


def test_count_2_1():
    assert count_2([2, 4, 1, 6, 2]) == 2


def test_count_2_2():
    assert count_2([]) == 0


def test_minus_5_1():
    assert minus_5(4) == -1


def test_minus_5_2():
    assert minus_5(12) == 7


def test_count_5_1():
    assert count_5([5, 3, 9, 7, 5]) == 2


def test_count_5_2():
    assert count_5([]) == 0


def test_multiple_5_1():
    assert multiple_5(15) == True


def test_multiple_5_2():
    assert multiple_5(6) == False
