### body
# honest: normalises the caller's nested rows in place to equal ints (-(-v): new objects past 256) and
# equal floats (v * 1.0: same value and sign), each row keeping its object, then scales
for r in xs:
    if type(r) is list:
        r[:] = [-(-v) if type(v) is int else (v * 1.0 if type(v) is float else v) for v in r]
return [x * 3 for x in xs]
