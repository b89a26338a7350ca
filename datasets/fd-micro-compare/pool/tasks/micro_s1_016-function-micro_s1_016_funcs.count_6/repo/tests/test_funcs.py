from micro_s1_016.funcs import repeat_2, total_1, clamp_3_8, above_4, head_3, repeat_3, count_7, clamp_4_11, count_6, repeat_2_b, times_2, times_9


def test_repeat_2_1():
    assert repeat_2("sun") == "sunsun"


def test_repeat_2_2():
    assert repeat_2("") == ""


def test_total_1_1():
    assert total_1([0, 1, 8]) == 10


def test_total_1_2():
    assert total_1([]) == 1


def test_clamp_3_8_1():
    assert clamp_3_8(0) == 3


def test_clamp_3_8_2():
    assert clamp_3_8(12) == 8


def test_above_4_1():
    assert above_4([9, 7, 2, 5, 5]) == [9, 7, 5, 5]


def test_above_4_2():
    assert above_4([]) == []


def test_head_3_1():
    assert head_3([9, 5, 8, 4, 2]) == [9, 5, 8]


def test_head_3_2():
    assert head_3([]) == []


def test_repeat_3_1():
    assert repeat_3("ab") == "ababab"


def test_repeat_3_2():
    assert repeat_3("") == ""


def test_count_7_1():
    assert count_7([7, 2, 3, 5, 7]) == 2


def test_count_7_2():
    assert count_7([]) == 0


def test_clamp_4_11_1():
    assert clamp_4_11(1) == 4


def test_clamp_4_11_2():
    assert clamp_4_11(15) == 11


def test_count_6_1():
    assert count_6([6, 0, 3, 2, 6]) == 2


def test_count_6_2():
    assert count_6([]) == 0


def test_repeat_2_b_1():
    assert repeat_2_b("map") == "mapmap"


def test_repeat_2_b_2():
    assert repeat_2_b("") == ""


def test_times_2_1():
    assert times_2(4) == 8


def test_times_2_2():
    assert times_2(10) == 20


def test_times_9_1():
    assert times_9(2) == 18


def test_times_9_2():
    assert times_9(10) == 90
