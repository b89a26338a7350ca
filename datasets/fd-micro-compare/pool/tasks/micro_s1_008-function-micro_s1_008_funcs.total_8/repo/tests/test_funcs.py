from micro_s1_008.funcs import head_1, count_2, suffix_v1, scaled_3, suffix_x, minus_3, total_8, head_3, times_5, times_6, count_8, head_2


def test_head_1_1():
    assert head_1([0, 1, 9, 1, 4]) == [0]


def test_head_1_2():
    assert head_1([]) == []


def test_count_2_1():
    assert count_2([2, 3, 1, 7, 2]) == 2


def test_count_2_2():
    assert count_2([]) == 0


def test_suffix_v1_1():
    assert suffix_v1("ab") == "abv1"


def test_suffix_v1_2():
    assert suffix_v1("") == "v1"


def test_scaled_3_1():
    assert scaled_3([0, 0, 9]) == [0, 0, 27]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_suffix_x_1():
    assert suffix_x("map") == "mapx"


def test_suffix_x_2():
    assert suffix_x("") == "x"


def test_minus_3_1():
    assert minus_3(7) == 4


def test_minus_3_2():
    assert minus_3(30) == 27


def test_total_8_1():
    assert total_8([4, 2, 9]) == 23


def test_total_8_2():
    assert total_8([]) == 8


def test_head_3_1():
    assert head_3([6, 9, 9, 0, 5]) == [6, 9, 9]


def test_head_3_2():
    assert head_3([]) == []


def test_times_5_1():
    assert times_5(1) == 5


def test_times_5_2():
    assert times_5(13) == 65


def test_times_6_1():
    assert times_6(7) == 42


def test_times_6_2():
    assert times_6(17) == 102


def test_count_8_1():
    assert count_8([8, 3, 0, 3, 8]) == 2


def test_count_8_2():
    assert count_8([]) == 0


def test_head_2_1():
    assert head_2([8, 9, 4, 6, 3]) == [8, 9]


def test_head_2_2():
    assert head_2([]) == []
