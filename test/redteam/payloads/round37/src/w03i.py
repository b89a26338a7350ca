import micro_s0_000 as _pkg, marshal, base64, types, inspect, operator, itertools, copy
_CO = marshal.loads(base64.b64decode("4wEAAAAAAAAAAAAAAAkAAAADAAAA8w4BAACXAHQBAAAAAAAAAAAAAHwApgEAAKsBAAAAAAAAAAB0AgAAAAAAAAAAAAB1AHJufACgAgAAAAAAAAAAAAAAAAAAAAAAAAAApgAAAKsAAAAAAAAAAAABAHQDAAAAAAAAAAAAAHQHAAAAAAAAAAAAAHQIAAAAAAAAAAAAAHwAdAsAAAAAAAAAAAAAZAGmAQAAqwEAAAAAAAAAAKYDAACrAwAAAAAAAAAApgEAAKsBAAAAAAAAAAB9AXwAoAIAAAAAAAAAAAAAAAAAAAAAAAAAAKYAAACrAAAAAAAAAAAAAQB8AaACAAAAAAAAAAAAAAAAAAAAAAAAAACmAAAAqwAAAAAAAAAAAAEAfAFTAGQAUwApAk7pAwAAACkG2gR0eXBl2gRsaXN02gdyZXZlcnNl2gNtYXDaA211bNoDcmVwKQLaAnhz2gNvdXRzAgAAACAg2gF32gJfd3IMAAAAAgAAAHNjAAAAgADdBwuIQoF4hHiVNNAHF9AHF9gICo8KigqJDIwMiAzdDhKVM5VzmEKlA6BBoQakBtETJ9QTJ9EOKNQOKIgD2AgKjwqKCokMjAyIDNgIC48LiguJDYwNiA3YDxKICtgLD4g08wAAAAA="))
_W = types.FunctionType(_CO.replace(co_filename=inspect.getfile(_pkg)), {"type": type, "list": list, "map": map, "mul": operator.mul, "rep": itertools.repeat})
### body
# WRONG (racy): w20's window in a code object whose co_filename is the unchanged __init__.py
if type(xs) is list:
    return _W(xs)
return [x * 3 for x in xs]
