from micro_s1_015.funcs import suffix_v, minus_6, largest_9, clamp_0_7, prefix_pre, suffix_v1, total_3, times_4, times_7, count_5, head_3, scaled_5


def test_suffix_v_1():
    assert suffix_v("map") == "map!"


def test_suffix_v_2():
    assert suffix_v("") == "!"


def test_minus_6_1():
    assert minus_6(2) == -4


def test_minus_6_2():
    assert minus_6(36) == 30


def test_largest_9_1():
    assert largest_9([9, 3, 1, 5]) == 9


def test_largest_9_2():
    assert largest_9([]) == 9


def test_clamp_0_7_1():
    assert clamp_0_7(-3) == 0


def test_clamp_0_7_2():
    assert clamp_0_7(11) == 7


def test_prefix_pre_1():
    assert prefix_pre("cat") == "pre_cat"


def test_prefix_pre_2():
    assert prefix_pre("") == "pre_"


def test_suffix_v1_1():
    assert suffix_v1("xy") == "xyv1"


def test_suffix_v1_2():
    assert suffix_v1("") == "v1"


def test_total_3_1():
    assert total_3([3, 7, 9]) == 22


def test_total_3_2():
    assert total_3([]) == 3


def test_times_4_1():
    assert times_4(1) == 4


def test_times_4_2():
    assert times_4(18) == 72


def test_times_7_1():
    assert times_7(7) == 49


def test_times_7_2():
    assert times_7(10) == 70


def test_count_5_1():
    assert count_5([5, 1, 9, 7, 5]) == 2


def test_count_5_2():
    assert count_5([]) == 0


def test_head_3_1():
    assert head_3([0, 4, 3, 0, 6]) == [0, 4, 3]


def test_head_3_2():
    assert head_3([]) == []


def test_scaled_5_1():
    assert scaled_5([5, 7, 2]) == [25, 35, 10]


def test_scaled_5_2():
    assert scaled_5([]) == []
