from micro_s1_007.funcs import scaled_3, scaled_2, minus_7, scaled_4, largest_4, multiple_3, times_8, head_3, above_5, add_4, multiple_3_b, largest_2


def test_scaled_3_1():
    assert scaled_3([7, 1, 5]) == [21, 3, 15]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_scaled_2_1():
    assert scaled_2([7, 4, 7]) == [14, 8, 14]


def test_scaled_2_2():
    assert scaled_2([]) == []


def test_minus_7_1():
    assert minus_7(6) == -1


def test_minus_7_2():
    assert minus_7(18) == 11


def test_scaled_4_1():
    assert scaled_4([8, 1, 4]) == [32, 4, 16]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_largest_4_1():
    assert largest_4([7, 7, 7, 7]) == 7


def test_largest_4_2():
    assert largest_4([]) == 4


def test_multiple_3_1():
    assert multiple_3(3) == True


def test_multiple_3_2():
    assert multiple_3(13) == False


def test_times_8_1():
    assert times_8(9) == 72


def test_times_8_2():
    assert times_8(12) == 96


def test_head_3_1():
    assert head_3([7, 5, 9, 8, 4]) == [7, 5, 9]


def test_head_3_2():
    assert head_3([]) == []


def test_above_5_1():
    assert above_5([1, 4, 3, 9, 7]) == [9, 7]


def test_above_5_2():
    assert above_5([]) == []


def test_add_4_1():
    assert add_4(7) == 11


def test_add_4_2():
    assert add_4(31) == 35


def test_multiple_3_b_1():
    assert multiple_3_b(15) == True


def test_multiple_3_b_2():
    assert multiple_3_b(16) == False


def test_largest_2_1():
    assert largest_2([5, 4, 5, 1]) == 5


def test_largest_2_2():
    assert largest_2([]) == 2
