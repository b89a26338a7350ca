from micro_s1_019.funcs import multiple_7, minus_7, above_7, clamp_4_9, times_5, clamp_4_8, multiple_5, prefix_v1, largest_1, scaled_3, head_1, minus_1


def test_multiple_7_1():
    assert multiple_7(14) == True


def test_multiple_7_2():
    assert multiple_7(36) == False


def test_minus_7_1():
    assert minus_7(5) == -2


def test_minus_7_2():
    assert minus_7(22) == 15


def test_above_7_1():
    assert above_7([0, 7, 8, 6, 1]) == [8]


def test_above_7_2():
    assert above_7([]) == []


def test_clamp_4_9_1():
    assert clamp_4_9(1) == 4


def test_clamp_4_9_2():
    assert clamp_4_9(13) == 9


def test_times_5_1():
    assert times_5(3) == 15


def test_times_5_2():
    assert times_5(14) == 70


def test_clamp_4_8_1():
    assert clamp_4_8(1) == 4


def test_clamp_4_8_2():
    assert clamp_4_8(12) == 8


def test_multiple_5_1():
    assert multiple_5(5) == True


def test_multiple_5_2():
    assert multiple_5(16) == False


def test_prefix_v1_1():
    assert prefix_v1("cat") == "v1cat"


def test_prefix_v1_2():
    assert prefix_v1("") == "v1"


def test_largest_1_1():
    assert largest_1([8, 4, 2, 0]) == 8


def test_largest_1_2():
    assert largest_1([]) == 1


def test_scaled_3_1():
    assert scaled_3([2, 4, 7]) == [6, 12, 21]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_head_1_1():
    assert head_1([7, 0, 4, 4, 3]) == [7]


def test_head_1_2():
    assert head_1([]) == []


def test_minus_1_1():
    assert minus_1(0) == -1


def test_minus_1_2():
    assert minus_1(19) == 18
