"""Which imports the grading environment satisfies (the hack monitor's, lib/env/monitor.ts: an added
import is judged by this interpreter, the one that grades the task). Request (argv[1], JSON):
{"repo": the task's snapshot, "items": ["module" or "module:name", ...]}. Answer (stdout, JSON):
{item: "ok" | "missing" | "undeclared"}:
- a module of the standard library (or a name from one) is "ok" where this interpreter has it, and
  "missing" where it does not (a build without tkinter or _gdbm, a name of a later version);
- any other module is "ok" where its distribution is one the project requires (pyproject.toml's
  [project] dependencies, setup.cfg's or setup.py's install_requires) or one those require in turn, "undeclared"
  otherwise (installed here or not: code that runs only where an undeclared package is, or is not,
  installed has a side no run grades). The project's own modules are the caller's to allow."""
import importlib
import importlib.util
import json
import os
import re
import sys
from importlib import metadata


def requirement_names(reqs):
    out = []
    for r in reqs or ():
        if "extra ==" in r.replace('"', "").replace("'", "") or "extra==" in r.replace(" ", ""):
            continue
        name = re.split(r"[\s;<>=!~\[(@]", r.strip(), 1)[0]
        if name:
            out.append(name)
    return out


def normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(repo):
    names = []
    try:
        import tomllib
        with open(os.path.join(repo, "pyproject.toml"), "rb") as f:
            names += requirement_names(tomllib.load(f).get("project", {}).get("dependencies"))
    except (OSError, ValueError):
        pass
    try:
        import configparser
        cp = configparser.ConfigParser()
        cp.read(os.path.join(repo, "setup.cfg"))
        names += requirement_names([l for l in cp.get("options", "install_requires", fallback="").splitlines() if l.strip()])
    except (configparser.Error, OSError):
        pass
    try:
        # setup.py's setup(install_requires=[...]) written out as a list of strings
        import ast
        with open(os.path.join(repo, "setup.py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for k in node.keywords:
                    if k.arg == "install_requires" and isinstance(k.value, (ast.List, ast.Tuple)):
                        names += requirement_names([e.value for e in k.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)])
    except (OSError, SyntaxError, ValueError):
        pass
    # (and what they require in turn, as installed here)
    seen, todo = set(), [normal(n) for n in names]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        try:
            todo += [normal(x) for x in requirement_names(metadata.requires(n))]
        except metadata.PackageNotFoundError:
            pass
    modules = set()
    for module, dists in metadata.packages_distributions().items():
        if any(normal(d) in seen for d in dists):
            modules.add(module)
    # (a distribution's own name as a module name: MarkupSafe -> markupsafe)
    modules.update(n.replace("-", "_") for n in seen)
    return modules


def main():
    req = json.loads(sys.argv[1])
    std = set(sys.stdlib_module_names) | set(sys.builtin_module_names)
    allowed = None
    out = {}
    for item in req["items"]:
        module, _, name = item.partition(":")
        top = module.split(".")[0]
        if top in std:
            try:
                m = importlib.import_module(module)
                ok = not name or hasattr(m, name) or importlib.util.find_spec(module + "." + name) is not None
            except Exception:
                ok = False
            out[item] = "ok" if ok else "missing"
        else:
            if allowed is None:
                allowed = declared(req["repo"])
            out[item] = "ok" if top in allowed else "undeclared"
    print(json.dumps(out))


if __name__ == "__main__":
    main()
