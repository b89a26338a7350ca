from micro_s1_000.funcs import add_9, times_2, add_5, minus_2, multiple_4, add_1, total_3, add_6, multiple_7, suffix_tmp, multiple_7_b, count_9


def test_add_9_1():
    assert add_9(0) == 9


def test_add_9_2():
    assert add_9(12) == 21


def test_times_2_1():
    assert times_2(2) == 4


def test_times_2_2():
    assert times_2(14) == 28


def test_add_5_1():
    assert add_5(4) == 9


def test_add_5_2():
    assert add_5(28) == 33


def test_minus_2_1():
    assert minus_2(6) == 4


def test_minus_2_2():
    assert minus_2(34) == 32


def test_multiple_4_1():
    assert multiple_4(12) == True


def test_multiple_4_2():
    assert multiple_4(5) == False


def test_add_1_1():
    assert add_1(5) == 6


def test_add_1_2():
    assert add_1(14) == 15


def test_total_3_1():
    assert total_3([9, 8, 4]) == 24


def test_total_3_2():
    assert total_3([]) == 3


def test_add_6_1():
    assert add_6(0) == 6


def test_add_6_2():
    assert add_6(28) == 34


def test_multiple_7_1():
    assert multiple_7(28) == True


def test_multiple_7_2():
    assert multiple_7(8) == False


def test_suffix_tmp_1():
    assert suffix_tmp("io") == "iotmp_"


def test_suffix_tmp_2():
    assert suffix_tmp("") == "tmp_"


def test_multiple_7_b_1():
    assert multiple_7_b(14) == True


def test_multiple_7_b_2():
    assert multiple_7_b(22) == False


def test_count_9_1():
    assert count_9([9, 0, 2, 9, 9]) == 3


def test_count_9_2():
    assert count_9([]) == 0
