from micro_s2_007.funcs import scaled_k5ay4, times_k50yi, largest_k4qyw, largest_k4gzb, suffix_k46zp, total_k3x03, times_k4qvr, minus_k50vd, minus_k5auy, suffix_k5kuk, total_k3mxc, add_k3wwy


def test_scaled_k5ay4_1():
    assert scaled_k5ay4([1]) == [5]


def test_scaled_k5ay4_2():
    assert scaled_k5ay4([9, 0, 0]) == [45, 0, 0]


def test_times_k50yi_1():
    assert times_k50yi(1) == 8


def test_times_k50yi_2():
    assert times_k50yi(4) == 32


def test_largest_k4qyw_1():
    assert largest_k4qyw([]) == 9


def test_largest_k4qyw_2():
    assert largest_k4qyw([8, 7, 6, 6]) == 8


def test_largest_k4gzb_1():
    assert largest_k4gzb([]) == 9


def test_largest_k4gzb_2():
    assert largest_k4gzb([1, 7, 4, 6]) == 7


def test_suffix_k46zp_1():
    assert suffix_k46zp("") == "_ok"


def test_suffix_k46zp_2():
    assert suffix_k46zp("io") == "io_ok"


def test_total_k3x03_1():
    assert total_k3x03([]) == 1


def test_total_k3x03_2():
    assert total_k3x03([1, 5, 7]) == 14


def test_times_k4qvr_1():
    assert times_k4qvr(1) == 9


def test_times_k4qvr_2():
    assert times_k4qvr(2) == 18


def test_minus_k50vd_1():
    assert minus_k50vd(0) == -7


def test_minus_k50vd_2():
    assert minus_k50vd(1) == -6


def test_minus_k5auy_1():
    assert minus_k5auy(0) == -8


def test_minus_k5auy_2():
    assert minus_k5auy(2) == -6


def test_suffix_k5kuk_1():
    assert suffix_k5kuk("") == "pre_"


def test_suffix_k5kuk_2():
    assert suffix_k5kuk("red") == "redpre_"


def test_total_k3mxc_1():
    assert total_k3mxc([]) == 6


def test_total_k3mxc_2():
    assert total_k3mxc([4, 3, 9]) == 22


def test_add_k3wwy_1():
    assert add_k3wwy(0) == 5


def test_add_k3wwy_2():
    assert add_k3wwy(8) == 13
