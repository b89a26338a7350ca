from micro_s2_006.funcs import total_k14tz, prefix_k153y, largest_k149z, add_k14jz, total_k13q0, largest_k1400, largest_k1361, add_k13g1, minus_k6ewj, minus_k64wx, prefix_k5uxb, scaled_k5kxp


def test_total_k14tz_1():
    assert total_k14tz([]) == 5


def test_total_k14tz_2():
    assert total_k14tz([5, 9, 6]) == 25


def test_prefix_k153y_1():
    assert prefix_k153y("") == "_ok"


def test_prefix_k153y_2():
    assert prefix_k153y("red") == "_okred"


def test_largest_k149z_1():
    assert largest_k149z([]) == 7


def test_largest_k149z_2():
    assert largest_k149z([6, 6, 2, 7]) == 7


def test_add_k14jz_1():
    assert add_k14jz(0) == 4


def test_add_k14jz_2():
    assert add_k14jz(4) == 8


def test_total_k13q0_1():
    assert total_k13q0([]) == 5


def test_total_k13q0_2():
    assert total_k13q0([3, 2, 2]) == 12


def test_largest_k1400_1():
    assert largest_k1400([]) == 8


def test_largest_k1400_2():
    assert largest_k1400([3, 7, 3, 8]) == 8


def test_largest_k1361_1():
    assert largest_k1361([]) == 2


def test_largest_k1361_2():
    assert largest_k1361([1, 4, 6, 2]) == 6


def test_add_k13g1_1():
    assert add_k13g1(0) == 2


def test_add_k13g1_2():
    assert add_k13g1(2) == 4


def test_minus_k6ewj_1():
    assert minus_k6ewj(0) == -1


def test_minus_k6ewj_2():
    assert minus_k6ewj(9) == 8


def test_minus_k64wx_1():
    assert minus_k64wx(0) == -3


def test_minus_k64wx_2():
    assert minus_k64wx(3) == 0


def test_prefix_k5uxb_1():
    assert prefix_k5uxb("") == "db."


def test_prefix_k5uxb_2():
    assert prefix_k5uxb("cat") == "db.cat"


def test_scaled_k5kxp_1():
    assert scaled_k5kxp([1]) == [4]


def test_scaled_k5kxp_2():
    assert scaled_k5kxp([2, 0, 5]) == [8, 0, 20]
