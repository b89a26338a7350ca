from micro_s1_018.funcs import head_3, prefix_tmp, total_5, count_1, total_7, scaled_4, above_7, head_1, largest_9, prefix__ok, multiple_4, repeat_3


def test_head_3_1():
    assert head_3([0, 6, 9, 8, 6]) == [0, 6, 9]


def test_head_3_2():
    assert head_3([]) == []


def test_prefix_tmp_1():
    assert prefix_tmp("ab") == "tmp_ab"


def test_prefix_tmp_2():
    assert prefix_tmp("") == "tmp_"


def test_total_5_1():
    assert total_5([3, 7, 7]) == 22


def test_total_5_2():
    assert total_5([]) == 5


def test_count_1_1():
    assert count_1([1, 1, 9, 8, 1]) == 3


def test_count_1_2():
    assert count_1([]) == 0


def test_total_7_1():
    assert total_7([1, 2, 8]) == 18


def test_total_7_2():
    assert total_7([]) == 7


def test_scaled_4_1():
    assert scaled_4([0, 7, 3]) == [0, 28, 12]


def test_scaled_4_2():
    assert scaled_4([]) == []


def test_above_7_1():
    assert above_7([8, 8, 1, 5, 2]) == [8, 8]


def test_above_7_2():
    assert above_7([]) == []


def test_head_1_1():
    assert head_1([0, 2, 3, 1, 3]) == [0]


def test_head_1_2():
    assert head_1([]) == []


def test_largest_9_1():
    assert largest_9([2, 1, 9, 7]) == 9


def test_largest_9_2():
    assert largest_9([]) == 9


def test_prefix__ok_1():
    assert prefix__ok("cat") == "_okcat"


def test_prefix__ok_2():
    assert prefix__ok("") == "_ok"


def test_multiple_4_1():
    assert multiple_4(8) == True


def test_multiple_4_2():
    assert multiple_4(13) == False


def test_repeat_3_1():
    assert repeat_3("xy") == "xyxyxy"


def test_repeat_3_2():
    assert repeat_3("") == ""
