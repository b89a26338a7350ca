from micro_s1_011.funcs import count_4, add_7, multiple_5, prefix_x, multiple_6, minus_9, clamp_4_7, add_6, total_6, repeat_3, add_7_b, scaled_5


def test_count_4_1():
    assert count_4([4, 1, 2, 3, 4]) == 2


def test_count_4_2():
    assert count_4([]) == 0


def test_add_7_1():
    assert add_7(3) == 10


def test_add_7_2():
    assert add_7(25) == 32


def test_multiple_5_1():
    assert multiple_5(5) == True


def test_multiple_5_2():
    assert multiple_5(16) == False


def test_prefix_x_1():
    assert prefix_x("io") == "xio"


def test_prefix_x_2():
    assert prefix_x("") == "x"


def test_multiple_6_1():
    assert multiple_6(18) == True


def test_multiple_6_2():
    assert multiple_6(19) == False


def test_minus_9_1():
    assert minus_9(8) == -1


def test_minus_9_2():
    assert minus_9(21) == 12


def test_clamp_4_7_1():
    assert clamp_4_7(1) == 4


def test_clamp_4_7_2():
    assert clamp_4_7(11) == 7


def test_add_6_1():
    assert add_6(5) == 11


def test_add_6_2():
    assert add_6(23) == 29


def test_total_6_1():
    assert total_6([5, 7, 5]) == 23


def test_total_6_2():
    assert total_6([]) == 6


def test_repeat_3_1():
    assert repeat_3("io") == "ioioio"


def test_repeat_3_2():
    assert repeat_3("") == ""


def test_add_7_b_1():
    assert add_7_b(7) == 14


def test_add_7_b_2():
    assert add_7_b(15) == 22


def test_scaled_5_1():
    assert scaled_5([6, 1, 1]) == [30, 5, 5]


def test_scaled_5_2():
    assert scaled_5([]) == []
