from micro_s0_005.funcs import scaled_3, suffix_tmp, add_8, times_7, largest_6, above_3, clamp_0_5, prefix_pre


def test_scaled_3_1():
    assert scaled_3([1, 3, 9]) == [3, 9, 27]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_suffix_tmp_1():
    assert suffix_tmp("cat") == "cattmp_"


def test_suffix_tmp_2():
    assert suffix_tmp("") == "tmp_"


def test_add_8_1():
    assert add_8(9) == 17


def test_add_8_2():
    assert add_8(13) == 21


def test_times_7_1():
    assert times_7(5) == 35


def test_times_7_2():
    assert times_7(15) == 105


def test_largest_6_1():
    assert largest_6([1, 0, 8, 2]) == 8


def test_largest_6_2():
    assert largest_6([]) == 6


def test_above_3_1():
    assert above_3([8, 3, 8, 5, 7]) == [8, 8, 5, 7]


def test_above_3_2():
    assert above_3([]) == []


def test_clamp_0_5_1():
    assert clamp_0_5(-3) == 0


def test_clamp_0_5_2():
    assert clamp_0_5(9) == 5


def test_prefix_pre_1():
    assert prefix_pre("map") == "pre_map"


def test_prefix_pre_2():
    assert prefix_pre("") == "pre_"
