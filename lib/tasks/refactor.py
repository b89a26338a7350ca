"""Reformat and refactor functions of a Python source (issue 26: the behavioural check's false-flag
measurement on real tasks). stdin: {"source": TEXT, "qualnames": [...]}; stdout: the new source.
Each named function (or every method of a named class) is re-printed by ast.unparse (formatting,
quotes, parentheses and comments change) with every local variable renamed; its behaviour stays."""
import ast
import json
import sys


class Renamer(ast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        if node.id in self.mapping:
            node.id = self.mapping[node.id]
        return node

    def visit_arg(self, node):
        return node  # parameters keep their names (callers may pass them by keyword)

    def visit_ExceptHandler(self, node):
        if node.name in self.mapping:
            node.name = self.mapping[node.name]
        self.generic_visit(node)
        return node


def locals_of(fn):
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    if fn.args.vararg:
        params.add(fn.args.vararg.arg)
    if fn.args.kwarg:
        params.add(fn.args.kwarg.arg)
    # a name that is also a parameter of a nested lambda or function keeps its name everywhere
    params |= {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)}
    declared = set()
    stored = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stored.add(node.name)
    # names of nested defs/classes stay (they may be referenced by name elsewhere)
    return sorted(stored - params - declared)


def refactor(fn, taken):
    mapping = {}
    for name in locals_of(fn):
        new = "r_" + name.strip("_")
        while new in taken:
            new += "_"
        taken.add(new)
        mapping[name] = new
    fn.body = [Renamer(mapping).visit(s) for s in fn.body]
    return fn


def main():
    req = json.loads(sys.stdin.read())
    src = req["source"]
    tree = ast.parse(src)
    lines = src.split("\n")
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    targets = []

    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = prefix + node.name
                if q in req["qualnames"]:
                    if isinstance(node, ast.ClassDef):
                        targets.extend(n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
                    else:
                        targets.append(node)
                elif isinstance(node, ast.ClassDef):
                    visit(node.body, q + ".")

    visit(tree.body, "")
    if not targets:
        sys.exit("none of %s found" % req["qualnames"])
    for fn in sorted(targets, key=lambda n: -n.lineno):
        start = min([fn.lineno] + [d.lineno for d in fn.decorator_list]) - 1
        end = fn.end_lineno
        indent = " " * fn.col_offset
        text = ast.unparse(refactor(fn, taken))
        lines[start:end] = [indent + l if l else l for l in text.split("\n")]
    out = "\n".join(lines)
    ast.parse(out)
    sys.stdout.write(out)


main()
