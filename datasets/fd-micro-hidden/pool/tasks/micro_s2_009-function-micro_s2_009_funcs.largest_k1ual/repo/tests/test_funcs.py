from micro_s2_009.funcs import largest_kqw30, prefix_kr62l, largest_k1ual, times_k1u0m, scaled_k1tqm, prefix_k1tgm, times_k1t6n, suffix_k1swn, minus_k1smo, minus_k1sco, times_k1s2o, times_k1rsp


def test_largest_kqw30_1():
    assert largest_kqw30([]) == 1


def test_largest_kqw30_2():
    assert largest_kqw30([7, 3, 5, 1]) == 7


def test_prefix_kr62l_1():
    assert prefix_kr62l("") == "x"


def test_prefix_kr62l_2():
    assert prefix_kr62l("cat") == "xcat"


def test_largest_k1ual_1():
    assert largest_k1ual([]) == 4


def test_largest_k1ual_2():
    assert largest_k1ual([9, 1, 3, 7]) == 9


def test_times_k1u0m_1():
    assert times_k1u0m(1) == 5


def test_times_k1u0m_2():
    assert times_k1u0m(9) == 45


def test_scaled_k1tqm_1():
    assert scaled_k1tqm([1]) == [3]


def test_scaled_k1tqm_2():
    assert scaled_k1tqm([7, 8, 6]) == [21, 24, 18]


def test_prefix_k1tgm_1():
    assert prefix_k1tgm("") == "v1"


def test_prefix_k1tgm_2():
    assert prefix_k1tgm("map") == "v1map"


def test_times_k1t6n_1():
    assert times_k1t6n(1) == 5


def test_times_k1t6n_2():
    assert times_k1t6n(5) == 25


def test_suffix_k1swn_1():
    assert suffix_k1swn("") == "pre_"


def test_suffix_k1swn_2():
    assert suffix_k1swn("map") == "mappre_"


def test_minus_k1smo_1():
    assert minus_k1smo(0) == -4


def test_minus_k1smo_2():
    assert minus_k1smo(3) == -1


def test_minus_k1sco_1():
    assert minus_k1sco(0) == -4


def test_minus_k1sco_2():
    assert minus_k1sco(6) == 2


def test_times_k1s2o_1():
    assert times_k1s2o(1) == 3


def test_times_k1s2o_2():
    assert times_k1s2o(4) == 12


def test_times_k1rsp_1():
    assert times_k1rsp(1) == 4


def test_times_k1rsp_2():
    assert times_k1rsp(4) == 16
