from micro_s1_002.funcs import largest_6, count_2, repeat_3, add_3, minus_3, repeat_3_b, times_2, repeat_3_b_b, total_8, above_3, head_1, minus_1


def test_largest_6_1():
    assert largest_6([0, 5, 5, 8]) == 8


def test_largest_6_2():
    assert largest_6([]) == 6


def test_count_2_1():
    assert count_2([2, 1, 5, 5, 2]) == 2


def test_count_2_2():
    assert count_2([]) == 0


def test_repeat_3_1():
    assert repeat_3("sun") == "sunsunsun"


def test_repeat_3_2():
    assert repeat_3("") == ""


def test_add_3_1():
    assert add_3(3) == 6


def test_add_3_2():
    assert add_3(20) == 23


def test_minus_3_1():
    assert minus_3(4) == 1


def test_minus_3_2():
    assert minus_3(30) == 27


def test_repeat_3_b_1():
    assert repeat_3_b("zen") == "zenzenzen"


def test_repeat_3_b_2():
    assert repeat_3_b("") == ""


def test_times_2_1():
    assert times_2(6) == 12


def test_times_2_2():
    assert times_2(12) == 24


def test_repeat_3_b_b_1():
    assert repeat_3_b_b("io") == "ioioio"


def test_repeat_3_b_b_2():
    assert repeat_3_b_b("") == ""


def test_total_8_1():
    assert total_8([1, 1, 2]) == 12


def test_total_8_2():
    assert total_8([]) == 8


def test_above_3_1():
    assert above_3([5, 3, 4, 2, 7]) == [5, 4, 7]


def test_above_3_2():
    assert above_3([]) == []


def test_head_1_1():
    assert head_1([7, 0, 9, 6, 5]) == [7]


def test_head_1_2():
    assert head_1([]) == []


def test_minus_1_1():
    assert minus_1(5) == 4


def test_minus_1_2():
    assert minus_1(13) == 12
