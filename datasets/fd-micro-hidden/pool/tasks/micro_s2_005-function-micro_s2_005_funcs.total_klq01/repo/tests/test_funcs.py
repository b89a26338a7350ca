from micro_s2_005.funcs import add_k1xow, minus_k1xex, suffix_k1y8w, prefix_k1xyw, largest_k1ysv, largest_k1yiv, times_kbqec, prefix_k1qsn, suffix_kvplq, total_klq01, largest_k15dy, prefix_k15nx


def test_add_k1xow_1():
    assert add_k1xow(0) == 2


def test_add_k1xow_2():
    assert add_k1xow(2) == 4


def test_minus_k1xex_1():
    assert minus_k1xex(0) == -9


def test_minus_k1xex_2():
    assert minus_k1xex(3) == -6


def test_suffix_k1y8w_1():
    assert suffix_k1y8w("") == "x"


def test_suffix_k1y8w_2():
    assert suffix_k1y8w("map") == "mapx"


def test_prefix_k1xyw_1():
    assert prefix_k1xyw("") == "!"


def test_prefix_k1xyw_2():
    assert prefix_k1xyw("red") == "!red"


def test_largest_k1ysv_1():
    assert largest_k1ysv([]) == 7


def test_largest_k1ysv_2():
    assert largest_k1ysv([5, 0, 5, 6]) == 6


def test_largest_k1yiv_1():
    assert largest_k1yiv([]) == 6


def test_largest_k1yiv_2():
    assert largest_k1yiv([5, 5, 7, 1]) == 7


def test_times_kbqec_1():
    assert times_kbqec(1) == 3


def test_times_kbqec_2():
    assert times_kbqec(5) == 15


def test_prefix_k1qsn_1():
    assert prefix_k1qsn("") == "tmp_"


def test_prefix_k1qsn_2():
    assert prefix_k1qsn("zen") == "tmp_zen"


def test_suffix_kvplq_1():
    assert suffix_kvplq("") == "tmp_"


def test_suffix_kvplq_2():
    assert suffix_kvplq("map") == "maptmp_"


def test_total_klq01_1():
    assert total_klq01([]) == 5


def test_total_klq01_2():
    assert total_klq01([0, 1, 2]) == 8


def test_largest_k15dy_1():
    assert largest_k15dy([]) == 8


def test_largest_k15dy_2():
    assert largest_k15dy([3, 1, 8, 4]) == 8


def test_prefix_k15nx_1():
    assert prefix_k15nx("") == "db."


def test_prefix_k15nx_2():
    assert prefix_k15nx("io") == "db.io"
