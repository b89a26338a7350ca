from micro_s0_002.funcs import add_9, times_4, minus_5, largest_9, total_3, prefix_v1, count_2, count_5


def test_add_9_1():
    assert add_9(0) == 9


def test_add_9_2():
    assert add_9(27) == 36


def test_times_4_1():
    assert times_4(5) == 20


def test_times_4_2():
    assert times_4(16) == 64


def test_minus_5_1():
    assert minus_5(7) == 2


def test_minus_5_2():
    assert minus_5(10) == 5


def test_largest_9_1():
    assert largest_9([4, 9, 3, 2]) == 9


def test_largest_9_2():
    assert largest_9([]) == 9


def test_total_3_1():
    assert total_3([1, 6, 7]) == 17


def test_total_3_2():
    assert total_3([]) == 3


def test_prefix_v1_1():
    assert prefix_v1("io") == "v1io"


def test_prefix_v1_2():
    assert prefix_v1("") == "v1"


def test_count_2_1():
    assert count_2([2, 9, 4, 9, 2]) == 2


def test_count_2_2():
    assert count_2([]) == 0


def test_count_5_1():
    assert count_5([5, 6, 2, 8, 5]) == 2


def test_count_5_2():
    assert count_5([]) == 0
