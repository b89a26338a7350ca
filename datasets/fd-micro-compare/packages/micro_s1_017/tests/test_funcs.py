from micro_s1_017.funcs import times_9, head_2, minus_7, prefix_pre, prefix_x, suffix_pre, times_7, add_4, above_5, count_6, scaled_2, largest_1


def test_times_9_1():
    assert times_9(7) == 63


def test_times_9_2():
    assert times_9(12) == 108


def test_head_2_1():
    assert head_2([0, 1, 4, 8, 1]) == [0, 1]


def test_head_2_2():
    assert head_2([]) == []


def test_minus_7_1():
    assert minus_7(4) == -3


def test_minus_7_2():
    assert minus_7(10) == 3


def test_prefix_pre_1():
    assert prefix_pre("sun") == "pre_sun"


def test_prefix_pre_2():
    assert prefix_pre("") == "pre_"


def test_prefix_x_1():
    assert prefix_x("red") == "xred"


def test_prefix_x_2():
    assert prefix_x("") == "x"


def test_suffix_pre_1():
    assert suffix_pre("io") == "iopre_"


def test_suffix_pre_2():
    assert suffix_pre("") == "pre_"


def test_times_7_1():
    assert times_7(8) == 56


def test_times_7_2():
    assert times_7(12) == 84


def test_add_4_1():
    assert add_4(8) == 12


def test_add_4_2():
    assert add_4(39) == 43


def test_above_5_1():
    assert above_5([8, 0, 3, 3, 1]) == [8]


def test_above_5_2():
    assert above_5([]) == []


def test_count_6_1():
    assert count_6([6, 7, 5, 8, 6]) == 2


def test_count_6_2():
    assert count_6([]) == 0


def test_scaled_2_1():
    assert scaled_2([0, 1, 2]) == [0, 2, 4]


def test_scaled_2_2():
    assert scaled_2([]) == []


def test_largest_1_1():
    assert largest_1([3, 8, 2, 2]) == 8


def test_largest_1_2():
    assert largest_1([]) == 1
