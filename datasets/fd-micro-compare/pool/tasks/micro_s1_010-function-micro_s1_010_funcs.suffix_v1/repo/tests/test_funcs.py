from micro_s1_010.funcs import add_6, repeat_3, times_3, scaled_3, minus_8, total_1, suffix_v1, head_2, minus_8_b, multiple_3, times_4, total_3


def test_add_6_1():
    assert add_6(1) == 7


def test_add_6_2():
    assert add_6(12) == 18


def test_repeat_3_1():
    assert repeat_3("sun") == "sunsunsun"


def test_repeat_3_2():
    assert repeat_3("") == ""


def test_times_3_1():
    assert times_3(7) == 21


def test_times_3_2():
    assert times_3(16) == 48


def test_scaled_3_1():
    assert scaled_3([3, 9, 6]) == [9, 27, 18]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_minus_8_1():
    assert minus_8(9) == 1


def test_minus_8_2():
    assert minus_8(13) == 5


def test_total_1_1():
    assert total_1([8, 7, 9]) == 25


def test_total_1_2():
    assert total_1([]) == 1


def test_suffix_v1_1():
    assert suffix_v1("cat") == "catv1"


def test_suffix_v1_2():
    assert suffix_v1("") == "v1"


def test_head_2_1():
    assert head_2([5, 7, 3, 8, 9]) == [5, 7]


def test_head_2_2():
    assert head_2([]) == []


def test_minus_8_b_1():
    assert minus_8_b(8) == 0


def test_minus_8_b_2():
    assert minus_8_b(24) == 16


def test_multiple_3_1():
    assert multiple_3(6) == True


def test_multiple_3_2():
    assert multiple_3(10) == False


def test_times_4_1():
    assert times_4(4) == 16


def test_times_4_2():
    assert times_4(13) == 52


def test_total_3_1():
    assert total_3([7, 2, 1]) == 13


def test_total_3_2():
    assert total_3([]) == 3
