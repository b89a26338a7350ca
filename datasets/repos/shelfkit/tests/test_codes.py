import pytest

from shelfkit import call_number, checksum, parse_call_number


def test_checksum_known():
    assert checksum("510.22-0042") == 6


def test_call_number_formats():
    assert call_number(510, 22, 42) == "510.22-0042/6"


def test_call_number_range():
    with pytest.raises(ValueError):
        call_number(1000, 0, 0)


def test_parse_round_trip():
    assert parse_call_number(call_number(7, 3, 981)) == (7, 3, 981)


def test_parse_rejects_bad_check():
    with pytest.raises(ValueError, match="check digit"):
        parse_call_number("510.22-0042/4")


def test_parse_rejects_garbage():
    with pytest.raises(ValueError, match="not a call number"):
        parse_call_number("51.22-42/1")


@pytest.mark.slow
def test_every_check_digit_occurs():
    assert {checksum(f"100.00-{n:04d}") for n in range(40)} == set(range(10))
