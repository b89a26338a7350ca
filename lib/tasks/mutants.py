"""Mutants of a golden body for composer-lab's mutation gate (lib/tasks/mutants.ts), from Python's own ast.

Reads JSON {"source": str, "qualnames": [str], "max": int} on stdin; prints {"mutants": [...],
"error": str|null}. Each mutant is {operator, lineno, what, source}: the whole file with ONE change
inside the named functions (a class: every function inside it), the rest of the file byte for byte.

The operators are what a reward hacker's "does less work" body looks like: a statement deleted (a
call whose effect is never checked, a step skipped), a return value or an assigned value replaced by
None, a returned value replaced by an argument (identity stubs), a branch forced one way. A mutant
the tests cannot tell from the golden body is a completion that earns the reward without that part
of the feature. Parse only: nothing is executed here.
"""
import ast
import json
import sys


def trivial(stmt):
    if isinstance(stmt, ast.Pass):
        return True
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)  # docstring or bare ...


def find(tree, qualname):
    """The FunctionDef/ClassDef node named by a dotted qualname (nested classes and functions)."""
    nodes = tree.body
    node = None
    for part in qualname.split("."):
        node = next((n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part), None)
        if node is None:
            return None
        nodes = node.body
    return node


def functions(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node]
    return [n for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def statements(fn):
    """Every statement inside fn's body, outer ones first (nested defs excluded: they are their own functions)."""
    out, queue = [], [(s, 0) for s in fn.body]
    while queue:
        s, depth = queue.pop(0)
        out.append((s, depth))
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(s, field, None)
            if isinstance(sub, list):
                queue.extend((x, depth + 1) for x in sub if isinstance(x, ast.stmt))
        for h in getattr(s, "handlers", []) or []:
            queue.extend((x, depth + 1) for x in h.body)
    return out


def params(fn):
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
    return [n for n in names if n not in ("self", "cls")]


def candidates(fn):
    """(depth, statement index, statement, operator) per possible mutation of fn, outer statements first."""
    out = []
    for idx, (s, depth) in enumerate(statements(fn)):
        if trivial(s):
            continue
        out.append((depth, idx, s, "delete_statement"))
        # a stub stands in for a computed result (None, or an argument handed back); a constant
        # answer replaced by None is the same to a test of its truth value (False → None), not a stub
        if isinstance(s, ast.Return) and s.value is not None and not isinstance(s.value, ast.Constant):
            out.append((depth, idx, s, "return_none"))
            if params(fn):
                out.append((depth, idx, s, "return_argument"))
            out.append((depth + 1, idx, s, "return_first"))
        if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and s.value is not None:
            out.append((depth + 1, idx, s, "assign_none"))
        if isinstance(s, ast.If):
            out.append((depth + 1, idx, s, "if_true"))
            out.append((depth + 1, idx, s, "if_false"))
        # a condition with one of its parts dropped (a filter or a check left out)
        if isinstance(s, (ast.If, ast.While)) and isinstance(s.test, ast.BoolOp):
            out.extend((depth + 1, idx, s, f"drop_operand:{k}") for k in range(len(s.test.values)))
        # a loop that stops after its first pass (the first item only)
        if isinstance(s, (ast.For, ast.AsyncFor, ast.While)) and s.body:
            out.append((depth + 1, idx, s, "loop_once"))
    out.sort(key=lambda c: (c[0], c[1]))
    return out


def edit(source, s, fn, op):
    """The node whose source span op replaces, and the replacement text (operands read from source)."""
    if op == "delete_statement":
        return s, "pass"
    if op in ("return_none", "assign_none"):
        return s.value, "None"
    if op == "return_argument":
        return s.value, params(fn)[0]
    if op == "if_true":
        return s.test, "True"
    if op == "if_false":
        return s.test, "False"
    if op == "return_first":
        return s.value, f"({ast.get_source_segment(source, s.value)})[:1]"
    if op.startswith("drop_operand:"):
        k = int(op.split(":")[1])
        rest = [ast.get_source_segment(source, v) for i, v in enumerate(s.test.values) if i != k]
        joiner = " and " if isinstance(s.test.op, ast.And) else " or "
        return s.test, joiner.join(f"({r})" for r in rest)
    raise ValueError(op)


def insert_break(raw_lines, loop):
    """The file with a `break` line after the loop body's last line (its comments kept where they were)."""
    last = loop.body[-1]
    return (b"".join(raw_lines[: last.end_lineno]) + (b"" if raw_lines[last.end_lineno - 1].endswith(b"\n") else b"\n") + b" " * last.col_offset + b"break\n" + b"".join(raw_lines[last.end_lineno:])).decode("utf-8")


def splice(raw_lines, node, text):
    """The file with node's span (ast offsets are UTF-8 bytes) replaced by text; the rest byte for byte."""
    first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    col = node.col_offset if first == node.lineno else len(raw_lines[first - 1]) - len(raw_lines[first - 1].lstrip())
    head = b"".join(raw_lines[: first - 1]) + raw_lines[first - 1][:col]
    tail = raw_lines[node.end_lineno - 1][node.end_col_offset:] + b"".join(raw_lines[node.end_lineno:])
    return (head + text.encode() + tail).decode("utf-8")


def main():
    req = json.load(sys.stdin)
    source, limit = req["source"], int(req.get("max", 32))
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return {"mutants": [], "error": f"line {e.lineno}: {e.msg}"}
    raw_lines = source.encode("utf-8").splitlines(keepends=True)
    pending = []
    for q in req["qualnames"]:
        node = find(tree, q)
        if node is None:
            return {"mutants": [], "error": f"no function or class named {q}"}
        for fn in functions(node):
            pending.extend((depth, rank, s, fn, op) for rank, (depth, _idx, s, op) in enumerate(candidates(fn)))
    # under the cap, every function gets its turn: the k-th mutant of each, outer statements first
    pending.sort(key=lambda c: (c[0] > 0, c[1], c[3].lineno))
    out, seen = [], {source}
    for _depth, _rank, s, fn, op in pending:
        if len(out) >= limit:
            break
        mutated = insert_break(raw_lines, s) if op == "loop_once" else splice(raw_lines, *edit(source, s, fn, op))
        if mutated in seen:
            continue
        try:
            compile(mutated, "<mutant>", "exec")
        except SyntaxError:
            continue
        seen.add(mutated)
        text = (ast.get_source_segment(source, s) or "").split("\n")[0][:120]
        out.append({"operator": op, "lineno": s.lineno, "what": f"{fn.name}: {op.replace('_', ' ')} at line {s.lineno}: {text}", "source": mutated})
    return {"mutants": out, "error": None}


if __name__ == "__main__":
    json.dump(main(), sys.stdout)
