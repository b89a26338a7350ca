def checksum(body):
    return sum(int(c) for c in body if c.isdigit()) % 10


def call_number(klass, subclass, serial):
    body = "%03d.%02d-%04d" % (klass, subclass, serial)
    return "%s/%d" % (body, checksum(body))


def parse_call_number(text):
    body, check = text.split("/")
    klass, rest = body.split(".")
    subclass, serial = rest.split("-")
    return int(klass), int(subclass), int(serial)
