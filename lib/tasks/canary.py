"""Where a test's expected value sits, and a value that contradicts it (composer-lab tasks canary).

Reads JSON {"source": test file text, "test": "test_name" | "Class::test_name", "skip": n} on
stdin; prints {"lineno", "old", "new", "assert_line", "source" (the file with the value changed)} for the
(skip+1)-th `assert A == B` / `assert A != B` / `assert A is True|False` in that test whose one
side is a literal (int, float, str, bytes, bool, or a list / tuple / dict / set display of them),
the literal and a different value of its shape (its first scalar changed); or {"error": why}.
Only literals in the test's body change (never a parametrize list, whose values name node ids). Parse only: nothing of the test runs.
"""
import ast
import json
import sys


def literal(node):
    """The value of a literal display (constants, lists, tuples, dicts, sets of them), or a marker."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NOT_LITERAL


NOT_LITERAL = object()


def contradict(v):
    """A value of v's shape that differs from it: its first scalar changed, else one more item."""
    if isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            c = contradict(x)
            if c is not None:
                out = list(v)
                out[i] = c
                return type(v)(out)
        return type(v)(list(v) + [0])
    if isinstance(v, dict):
        for k, x in v.items():
            c = contradict(x)
            if c is not None:
                return {**v, k: c}
        return {**v, "\u00a7": 0}
    if isinstance(v, (set, frozenset)):
        return type(v)(set(v) | {"\u00a7"})
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1 if v != -1 else 7
    if isinstance(v, float):
        return v + 1.5
    if isinstance(v, str):
        return v + "\u00a7" if v else "\u00a7"
    if isinstance(v, bytes):
        return v + b"\x00"
    return None


def find_test(tree, name):
    parts = name.split("::")
    nodes = tree.body
    for i, p in enumerate(parts):
        p = p.split("[")[0]
        hit = None
        for n in nodes:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == p:
                hit = n
        if hit is None:
            return None
        if i == len(parts) - 1:
            return hit
        nodes = hit.body
    return None


def main():
    req = json.load(sys.stdin)
    src = req["source"]
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError) as e:
        print(json.dumps({"error": "the test file does not parse: %s" % e}))
        return
    fn = find_test(tree, req["test"])
    if fn is None:
        print(json.dumps({"error": "no test %s in the file" % req["test"]}))
        return
    skip = int(req.get("skip", 0))
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
            continue
        cmp = node.test
        if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], (ast.Eq, ast.NotEq, ast.Is)):
            continue
        for side in (cmp.comparators[0], cmp.left):
            value = literal(side)
            if value is NOT_LITERAL or value is None or contradict(value) is None:
                continue
            if isinstance(cmp.ops[0], ast.Is) and not isinstance(value, bool):
                continue
            if skip:
                skip -= 1
                break
            new = contradict(value)
            lines = src.splitlines(keepends=True)
            # col offsets count UTF-8 bytes: splice in bytes
            head = "".join(lines[: side.lineno - 1]).encode() + lines[side.lineno - 1].encode()[: side.col_offset]
            tail = lines[side.end_lineno - 1].encode()[side.end_col_offset:] + "".join(lines[side.end_lineno:]).encode()
            mutated = (head + repr(new).encode() + tail).decode()
            print(json.dumps({
                "lineno": side.lineno, "old": ast.get_source_segment(src, side), "new": repr(new),
                "assert_line": lines[node.lineno - 1].strip()[:200], "source": mutated,
            }))
            return
    print(json.dumps({"error": "no assert comparing with a literal in %s" % req["test"]}))


main()
