"""Python source facts for composer-lab, from Python's own ast (parse only: nothing is executed).

Reads JSON {"files": {path: source}} on stdin; prints {path: {"symbols": [...], "imports": [...],
"error": str|null}}. A symbol: qualname, kind (function|class), lineno, end_lineno (decorators
included from `start`), body_start (first statement after the docstring), doc_span, real_statements
(statements that are not a docstring, pass, ..., or raise NotImplementedError), source.
"""
import ast
import json
import sys


def trivial(stmt):
    if isinstance(stmt, ast.Pass):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return True  # docstring or bare ...
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


def real_count(body):
    n = 0
    for s in body:
        if trivial(s):
            continue
        n += 1
        for field in ("body", "orelse", "finalbody", "handlers"):
            sub = getattr(s, field, None)
            if isinstance(sub, list) and sub and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                n += real_count([x for x in sub if isinstance(x, ast.stmt)])
    return n


def analyse(source):
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    raw = [l.encode("utf-8") for l in source.split("\n")]

    def cc(lineno, col):
        """ast columns are UTF-8 byte offsets; callers index characters."""
        return len(raw[lineno - 1][:col].decode("utf-8", errors="replace"))
    symbols, imports = [], []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qual = prefix + child.name
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                body = child.body
                doc = None
                if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                    doc = [body[0].lineno, body[0].end_lineno]
                first = body[1] if doc and len(body) > 1 else body[0]
                hints = []
                if not isinstance(child, ast.ClassDef):
                    a = child.args
                    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
                        if arg.annotation is not None:
                            hints.append({"start": [arg.lineno, cc(arg.lineno, arg.col_offset)], "end": [arg.end_lineno, cc(arg.end_lineno, arg.end_col_offset)], "text": arg.arg})
                    if child.returns is not None:
                        r = child.returns
                        hints.append({"start": "returns", "end": [r.end_lineno, cc(r.end_lineno, r.end_col_offset)], "returns_start": [r.lineno, cc(r.lineno, r.col_offset)], "text": ""})
                symbols.append({
                    "qualname": qual,
                    "kind": "class" if isinstance(child, ast.ClassDef) else "function",
                    "start": start,
                    "lineno": child.lineno,
                    "end_lineno": child.end_lineno,
                    "body_start": first.lineno if not (doc and len(body) == 1) else None,
                    "body_col": first.col_offset,
                    "doc_span": doc,
                    "real_statements": real_count(body),
                    "source": "".join(lines[start - 1:child.end_lineno]),
                    "hints": hints,
                    "names": sorted({n.id for n in ast.walk(child) if isinstance(n, ast.Name)} | {n.value.id for n in ast.walk(child) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}),
                })
                visit(child, qual + ".")
            elif isinstance(child, (ast.Import, ast.ImportFrom)) and prefix == "":
                names = [a.asname or a.name for a in child.names]
                imports.append({"lineno": child.lineno, "module": getattr(child, "module", None), "names": names})
            elif isinstance(child, (ast.Assign, ast.AnnAssign)) and prefix == "":
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                if names:
                    imports.append({"lineno": child.lineno, "module": None, "names": names, "assign": True})
    visit(tree, "")
    return {"symbols": symbols, "imports": imports, "error": None}


def main():
    req = json.load(sys.stdin)
    out = {}
    for path, source in req["files"].items():
        try:
            out[path] = analyse(source)
        except SyntaxError as e:
            out[path] = {"symbols": [], "imports": [], "error": f"SyntaxError: {e.msg} (line {e.lineno})"}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
