from micro_s2_002.funcs import minus_k13qi, scaled_k13gi, largest_k14ah, suffix_k140i, add_k12mk, times_k12ck, minus_k136g, add_k13gf, suffix_k12mh, suffix_k12wg, times_k14ae, minus_k14ke


def test_minus_k13qi_1():
    assert minus_k13qi(0) == -8


def test_minus_k13qi_2():
    assert minus_k13qi(3) == -5


def test_scaled_k13gi_1():
    assert scaled_k13gi([1]) == [4]


def test_scaled_k13gi_2():
    assert scaled_k13gi([7, 4, 4]) == [28, 16, 16]


def test_largest_k14ah_1():
    assert largest_k14ah([]) == 4


def test_largest_k14ah_2():
    assert largest_k14ah([5, 2, 6, 3]) == 6


def test_suffix_k140i_1():
    assert suffix_k140i("") == "v1"


def test_suffix_k140i_2():
    assert suffix_k140i("cat") == "catv1"


def test_add_k12mk_1():
    assert add_k12mk(0) == 2


def test_add_k12mk_2():
    assert add_k12mk(2) == 4


def test_times_k12ck_1():
    assert times_k12ck(1) == 8


def test_times_k12ck_2():
    assert times_k12ck(9) == 72


def test_minus_k136g_1():
    assert minus_k136g(0) == -2


def test_minus_k136g_2():
    assert minus_k136g(7) == 5


def test_add_k13gf_1():
    assert add_k13gf(0) == 4


def test_add_k13gf_2():
    assert add_k13gf(8) == 12


def test_suffix_k12mh_1():
    assert suffix_k12mh("") == "x"


def test_suffix_k12mh_2():
    assert suffix_k12mh("map") == "mapx"


def test_suffix_k12wg_1():
    assert suffix_k12wg("") == "_ok"


def test_suffix_k12wg_2():
    assert suffix_k12wg("xy") == "xy_ok"


def test_times_k14ae_1():
    assert times_k14ae(1) == 5


def test_times_k14ae_2():
    assert times_k14ae(8) == 40


def test_minus_k14ke_1():
    assert minus_k14ke(0) == -5


def test_minus_k14ke_2():
    assert minus_k14ke(5) == 0
