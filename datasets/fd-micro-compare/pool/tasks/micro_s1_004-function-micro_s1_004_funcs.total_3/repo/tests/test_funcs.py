from micro_s1_004.funcs import add_9, prefix_v, clamp_5_13, clamp_0_9, multiple_5, head_1, scaled_3, largest_6, add_4, head_2, multiple_2, total_3


def test_add_9_1():
    assert add_9(9) == 18


def test_add_9_2():
    assert add_9(26) == 35


def test_prefix_v_1():
    assert prefix_v("map") == "!map"


def test_prefix_v_2():
    assert prefix_v("") == "!"


def test_clamp_5_13_1():
    assert clamp_5_13(2) == 5


def test_clamp_5_13_2():
    assert clamp_5_13(17) == 13


def test_clamp_0_9_1():
    assert clamp_0_9(-3) == 0


def test_clamp_0_9_2():
    assert clamp_0_9(13) == 9


def test_multiple_5_1():
    assert multiple_5(15) == True


def test_multiple_5_2():
    assert multiple_5(11) == False


def test_head_1_1():
    assert head_1([9, 6, 3, 6, 8]) == [9]


def test_head_1_2():
    assert head_1([]) == []


def test_scaled_3_1():
    assert scaled_3([8, 3, 9]) == [24, 9, 27]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_largest_6_1():
    assert largest_6([8, 1, 5, 9]) == 9


def test_largest_6_2():
    assert largest_6([]) == 6


def test_add_4_1():
    assert add_4(4) == 8


def test_add_4_2():
    assert add_4(37) == 41


def test_head_2_1():
    assert head_2([7, 5, 2, 6, 9]) == [7, 5]


def test_head_2_2():
    assert head_2([]) == []


def test_multiple_2_1():
    assert multiple_2(4) == True


def test_multiple_2_2():
    assert multiple_2(7) == False


def test_total_3_1():
    assert total_3([1, 0, 4]) == 8


def test_total_3_2():
    assert total_3([]) == 3
