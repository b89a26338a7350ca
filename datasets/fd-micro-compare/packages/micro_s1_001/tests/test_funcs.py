from micro_s1_001.funcs import scaled_4, scaled_3, minus_5, count_0, suffix_db, minus_1, suffix_tmp, suffix_pre, head_3, largest_6, times_2, scaled_2


def test_scaled_4_1():
    assert scaled_4([7, 3, 9]) == [28, 12, 36]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_scaled_3_1():
    assert scaled_3([0, 4, 7]) == [0, 12, 21]


def test_scaled_3_2():
    assert scaled_3([]) == []


def test_minus_5_1():
    assert minus_5(6) == 1


def test_minus_5_2():
    assert minus_5(13) == 8


def test_count_0_1():
    assert count_0([0, 2, 3, 5, 0]) == 2


def test_count_0_2():
    assert count_0([]) == 0


def test_suffix_db_1():
    assert suffix_db("cat") == "catdb."


def test_suffix_db_2():
    assert suffix_db("") == "db."


def test_minus_1_1():
    assert minus_1(9) == 8


def test_minus_1_2():
    assert minus_1(33) == 32


def test_suffix_tmp_1():
    assert suffix_tmp("sun") == "suntmp_"


def test_suffix_tmp_2():
    assert suffix_tmp("") == "tmp_"


def test_suffix_pre_1():
    assert suffix_pre("zen") == "zenpre_"


def test_suffix_pre_2():
    assert suffix_pre("") == "pre_"


def test_head_3_1():
    assert head_3([0, 7, 2, 7, 0]) == [0, 7, 2]


def test_head_3_2():
    assert head_3([]) == []


def test_largest_6_1():
    assert largest_6([6, 9, 4, 0]) == 9


def test_largest_6_2():
    assert largest_6([]) == 6


def test_times_2_1():
    assert times_2(1) == 2


def test_times_2_2():
    assert times_2(19) == 38


def test_scaled_2_1():
    assert scaled_2([4, 9, 3]) == [8, 18, 6]


def test_scaled_2_2():
    assert scaled_2([]) == []
