from micro_s1_013.funcs import repeat_2, prefix_pre, prefix_v1, above_2, clamp_1_9, times_7, total_6, scaled_4, suffix_x, times_8, add_2, add_5


def test_repeat_2_1():
    assert repeat_2("cat") == "catcat"


def test_repeat_2_2():
    assert repeat_2("") == ""


def test_prefix_pre_1():
    assert prefix_pre("sun") == "pre_sun"


def test_prefix_pre_2():
    assert prefix_pre("") == "pre_"


def test_prefix_v1_1():
    assert prefix_v1("map") == "v1map"


def test_prefix_v1_2():
    assert prefix_v1("") == "v1"


def test_above_2_1():
    assert above_2([0, 4, 7, 1, 5]) == [4, 7, 5]


def test_above_2_2():
    assert above_2([]) == []


def test_clamp_1_9_1():
    assert clamp_1_9(-2) == 1


def test_clamp_1_9_2():
    assert clamp_1_9(13) == 9


def test_times_7_1():
    assert times_7(8) == 56


def test_times_7_2():
    assert times_7(15) == 105


def test_total_6_1():
    assert total_6([2, 1, 7]) == 16


def test_total_6_2():
    assert total_6([]) == 6


def test_scaled_4_1():
    assert scaled_4([1, 0, 8]) == [4, 0, 32]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_suffix_x_1():
    assert suffix_x("sun") == "sunx"


def test_suffix_x_2():
    assert suffix_x("") == "x"


def test_times_8_1():
    assert times_8(9) == 72


def test_times_8_2():
    assert times_8(11) == 88


def test_add_2_1():
    assert add_2(2) == 4


def test_add_2_2():
    assert add_2(22) == 24


def test_add_5_1():
    assert add_5(8) == 13


def test_add_5_2():
    assert add_5(37) == 42
