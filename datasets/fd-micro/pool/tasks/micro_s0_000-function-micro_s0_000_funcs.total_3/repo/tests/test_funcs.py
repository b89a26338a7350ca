from micro_s0_000.funcs import head_1, total_3, clamp_1_8, largest_2, count_5, scaled_3, add_3, above_3


def test_head_1_1():
    assert head_1([5, 1, 0, 7, 2]) == [5]


def test_head_1_2():
    assert head_1([]) == []


def test_total_3_1():
    assert total_3([6, 7, 3]) == 19


def test_total_3_2():
    assert total_3([]) == 3


def test_clamp_1_8_1():
    assert clamp_1_8(-2) == 1


def test_clamp_1_8_2():
    assert clamp_1_8(12) == 8


def test_largest_2_1():
    assert largest_2([4, 6, 6, 5]) == 6


def test_largest_2_2():
    assert largest_2([]) == 2


def test_count_5_1():
    assert count_5([5, 4, 0, 0, 5]) == 2


def test_count_5_2():
    assert count_5([]) == 0


def test_scaled_3_1():
    assert scaled_3([4, 6, 6]) == [12, 18, 18]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_add_3_1():
    assert add_3(8) == 11


def test_add_3_2():
    assert add_3(13) == 16


def test_above_3_1():
    assert above_3([1, 7, 1, 3, 7]) == [7, 7]


def test_above_3_2():
    assert above_3([]) == []
