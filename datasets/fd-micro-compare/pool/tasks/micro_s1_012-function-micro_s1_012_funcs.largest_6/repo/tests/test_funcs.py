from micro_s1_012.funcs import above_2, largest_6, scaled_3, count_8, minus_8, largest_3, add_5, above_6, multiple_7, prefix_v1, suffix_db, above_7


def test_above_2_1():
    assert above_2([1, 7, 5, 7, 1]) == [7, 5, 7]


def test_above_2_2():
    assert above_2([]) == []


def test_largest_6_1():
    assert largest_6([4, 1, 6, 9]) == 9


def test_largest_6_2():
    assert largest_6([]) == 6


def test_scaled_3_1():
    assert scaled_3([0, 9, 0]) == [0, 27, 0]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_count_8_1():
    assert count_8([8, 4, 8, 6, 8]) == 3


def test_count_8_2():
    assert count_8([]) == 0


def test_minus_8_1():
    assert minus_8(0) == -8


def test_minus_8_2():
    assert minus_8(16) == 8


def test_largest_3_1():
    assert largest_3([2, 4, 4, 2]) == 4


def test_largest_3_2():
    assert largest_3([]) == 3


def test_add_5_1():
    assert add_5(1) == 6


def test_add_5_2():
    assert add_5(37) == 42


def test_above_6_1():
    assert above_6([8, 0, 3, 9, 3]) == [8, 9]


def test_above_6_2():
    assert above_6([]) == []


def test_multiple_7_1():
    assert multiple_7(28) == True


def test_multiple_7_2():
    assert multiple_7(29) == False


def test_prefix_v1_1():
    assert prefix_v1("cat") == "v1cat"


def test_prefix_v1_2():
    assert prefix_v1("") == "v1"


def test_suffix_db_1():
    assert suffix_db("sun") == "sundb."


def test_suffix_db_2():
    assert suffix_db("") == "db."


def test_above_7_1():
    assert above_7([2, 0, 8, 4, 6]) == [8]


def test_above_7_2():
    assert above_7([]) == []
