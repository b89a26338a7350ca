from micro_s2_000.funcs import times_khra6, suffix_khhal, suffix_kib9e, minus_ki19s, total_kgnbr, add_kgdc6, minus_kh7az, suffix_kgxbd, add_kfjdd, suffix_kf9dr, prefix_kbtju, times_klt5j


def test_times_khra6_1():
    assert times_khra6(1) == 7


def test_times_khra6_2():
    assert times_khra6(9) == 63


def test_suffix_khhal_1():
    assert suffix_khhal("") == "tmp_"


def test_suffix_khhal_2():
    assert suffix_khhal("io") == "iotmp_"


def test_suffix_kib9e_1():
    assert suffix_kib9e("") == "x"


def test_suffix_kib9e_2():
    assert suffix_kib9e("zen") == "zenx"


def test_minus_ki19s_1():
    assert minus_ki19s(0) == -8


def test_minus_ki19s_2():
    assert minus_ki19s(8) == 0


def test_total_kgnbr_1():
    assert total_kgnbr([]) == 3


def test_total_kgnbr_2():
    assert total_kgnbr([3, 8, 5]) == 19


def test_add_kgdc6_1():
    assert add_kgdc6(0) == 2


def test_add_kgdc6_2():
    assert add_kgdc6(6) == 8


def test_minus_kh7az_1():
    assert minus_kh7az(0) == -2


def test_minus_kh7az_2():
    assert minus_kh7az(3) == 1


def test_suffix_kgxbd_1():
    assert suffix_kgxbd("") == "db."


def test_suffix_kgxbd_2():
    assert suffix_kgxbd("cat") == "catdb."


def test_add_kfjdd_1():
    assert add_kfjdd(0) == 8


def test_add_kfjdd_2():
    assert add_kfjdd(9) == 17


def test_suffix_kf9dr_1():
    assert suffix_kf9dr("") == "v1"


def test_suffix_kf9dr_2():
    assert suffix_kf9dr("red") == "redv1"


def test_prefix_kbtju_1():
    assert prefix_kbtju("") == "db."


def test_prefix_kbtju_2():
    assert prefix_kbtju("zen") == "db.zen"


def test_times_klt5j_1():
    assert times_klt5j(1) == 9


def test_times_klt5j_2():
    assert times_klt5j(5) == 45
