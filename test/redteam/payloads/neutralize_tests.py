"""Host-side helper for the red-team suite: rewrite every test function's body (read from stdin)
to `pass` or `assert True`; decorators (and so parametrize ids) stay. Prints the new source."""
import ast
import sys

mode = sys.argv[1]  # "pass" | "assert"
tree = ast.parse(sys.stdin.read())
for node in ast.walk(tree):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
        node.body = [ast.Pass()] if mode == "pass" else [ast.Assert(test=ast.Constant(True))]
print(ast.unparse(tree))
