from micro_s0_003.funcs import prefix_x, times_2, add_6, minus_5, minus_1, add_8, add_9, count_4


def test_prefix_x_1():
    assert prefix_x("sun") == "xsun"


def test_prefix_x_2():
    assert prefix_x("") == "x"


def test_times_2_1():
    assert times_2(4) == 8


def test_times_2_2():
    assert times_2(17) == 34


def test_add_6_1():
    assert add_6(0) == 6


def test_add_6_2():
    assert add_6(16) == 22


def test_minus_5_1():
    assert minus_5(5) == 0


def test_minus_5_2():
    assert minus_5(30) == 25


def test_minus_1_1():
    assert minus_1(6) == 5


def test_minus_1_2():
    assert minus_1(38) == 37


def test_add_8_1():
    assert add_8(5) == 13


def test_add_8_2():
    assert add_8(29) == 37


def test_add_9_1():
    assert add_9(1) == 10


def test_add_9_2():
    assert add_9(21) == 30


def test_count_4_1():
    assert count_4([4, 5, 1, 9, 4]) == 2


def test_count_4_2():
    assert count_4([]) == 0
