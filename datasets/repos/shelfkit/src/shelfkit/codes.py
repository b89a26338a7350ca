"""Call numbers: CLASS.SUBCLASS-SERIAL/CHECK, e.g. "510.22-0042/7"."""
import re

_PATTERN = re.compile(r"^(\d{3})\.(\d{2})-(\d{4})/(\d)$")


def _digits(text: str) -> list[int]:
    """The decimal digits of a string, in order."""
    return [int(c) for c in text if c.isdigit()]


def _weighted_sum(digits: list[int]) -> int:
    # weights 3, 1, 3, 1, ... from the left, as on the catalogue cards
    return sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(digits))


def checksum(body: str) -> int:
    """The check digit of a call number body ("510.22-0042")."""
    return (10 - _weighted_sum(_digits(body)) % 10) % 10


def call_number(klass: int, subclass: int, serial: int) -> str:
    """Formats a call number with its check digit."""
    if not (0 <= klass < 1000 and 0 <= subclass < 100 and 0 <= serial < 10000):
        raise ValueError("call number part out of range")
    body = f"{klass:03d}.{subclass:02d}-{serial:04d}"
    return f"{body}/{checksum(body)}"


def parse_call_number(text: str) -> tuple[int, int, int]:
    """(class, subclass, serial) of a call number; ValueError when malformed or the check fails."""
    m = _PATTERN.match(text.strip())
    if not m:
        raise ValueError(f"not a call number: {text!r}")
    klass, subclass, serial, check = (int(g) for g in m.groups())
    if checksum(text.strip().split("/")[0]) != check:
        raise ValueError(f"bad check digit in {text!r}")
    return klass, subclass, serial
