from micro_s0_004.funcs import scaled_4, prefix_pre, add_2, repeat_3, scaled_4_b, repeat_4, head_2, clamp_1_8


def test_scaled_4_1():
    assert scaled_4([3, 2, 3]) == [12, 8, 12]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_prefix_pre_1():
    assert prefix_pre("sun") == "pre_sun"


def test_prefix_pre_2():
    assert prefix_pre("") == "pre_"


def test_add_2_1():
    assert add_2(1) == 3


def test_add_2_2():
    assert add_2(27) == 29


def test_repeat_3_1():
    assert repeat_3("red") == "redredred"


def test_repeat_3_2():
    assert repeat_3("") == ""


def test_scaled_4_b_1():
    assert scaled_4_b([8, 0, 5]) == [32, 0, 20]


def test_scaled_4_b_2():
    assert scaled_4_b([]) == []


def test_repeat_4_1():
    assert repeat_4("ab") == "abababab"


def test_repeat_4_2():
    assert repeat_4("") == ""


def test_head_2_1():
    assert head_2([2, 2, 4, 1, 0]) == [2, 2]


def test_head_2_2():
    assert head_2([]) == []


def test_clamp_1_8_1():
    assert clamp_1_8(-2) == 1


def test_clamp_1_8_2():
    assert clamp_1_8(12) == 8
