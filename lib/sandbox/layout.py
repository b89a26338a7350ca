"""Where a Python project's own importable code lives (read-only: nothing of the repo is executed).

Usage: python3 -I -S layout.py REPO  ->  one JSON object:
  {"kind": "src"|"flat"|"configured"|"namespace", "roots": [dirs relative to REPO, first first],
   "packages": [{"name", "path", "namespace"}], "source": where the answer came from}

Read in order: the packaging metadata (pyproject.toml's setuptools / hatch / flit / pdm / poetry
tables, setup.cfg's [options], setup.py's package_dir literal), then the tree itself (a src/ folder
holding packages or modules; packages and modules at the root; PEP 420 namespace folders).
"""
import ast
import configparser
import json
import os
import re
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

NOT_CODE = re.compile(r"^(tests?|testing|docs?|doc_src|examples?|benchmarks?|bench|scripts?|tools|ci|build|dist|site|htmlcov|venv|env|node_modules|__pycache__|src|\..*|.*\.egg-info)$")
NOT_MODULE = re.compile(r"^(setup|conftest|noxfile|fabfile|tasks|test_.*|.*_test|conf|manage|versioneer|bootstrap)\.py$")
IDENT = re.compile(r"^[A-Za-z_]\w*$")


def read_toml(repo):
    p = os.path.join(repo, "pyproject.toml")
    if not (tomllib and os.path.isfile(p)):
        return {}
    try:
        with open(p, "rb") as f:
            return tomllib.load(f)
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return {}


def read_cfg(repo):
    p = os.path.join(repo, "setup.cfg")
    cfg = configparser.ConfigParser(interpolation=None)
    if os.path.isfile(p):
        try:
            cfg.read(p, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            pass
    return cfg


def package_dir_from_setup_py(repo):
    p = os.path.join(repo, "setup.py")
    if not os.path.isfile(p):
        return None
    try:
        tree = ast.parse(open(p, "rb").read())
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "package_dir" and isinstance(node.value, ast.Dict):
            for k, v in zip(node.value.keys, node.value.values):
                if isinstance(k, ast.Constant) and k.value == "" and isinstance(v, ast.Constant) and isinstance(v.value, str):
                    return v.value
    return None


def configured_roots(repo):
    """Package roots the packaging metadata names, with where it said so."""
    t = read_toml(repo)
    tool = t.get("tool", {}) if isinstance(t, dict) else {}
    st = tool.get("setuptools", {})
    pd = st.get("package-dir") or st.get("package_dir")
    if isinstance(pd, dict) and isinstance(pd.get(""), str):
        return [pd[""]], "pyproject.toml [tool.setuptools] package-dir"
    find = st.get("packages", {}).get("find", {}) if isinstance(st.get("packages"), dict) else {}
    if isinstance(find.get("where"), list) and find["where"]:
        return [str(w) for w in find["where"]], "pyproject.toml [tool.setuptools.packages.find] where"
    wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    if isinstance(wheel.get("packages"), list) and wheel["packages"]:
        return sorted({os.path.dirname(str(p).rstrip("/")) or "." for p in wheel["packages"]}), "pyproject.toml [tool.hatch.build.targets.wheel] packages"
    pdm = tool.get("pdm", {}).get("build", {}) if isinstance(tool.get("pdm", {}).get("build"), dict) else {}
    if isinstance(pdm.get("package-dir"), str):
        return [pdm["package-dir"]], "pyproject.toml [tool.pdm.build] package-dir"
    poetry = tool.get("poetry", {}).get("packages")
    if isinstance(poetry, list):
        froms = sorted({p.get("from", ".") for p in poetry if isinstance(p, dict)})
        if froms:
            return froms, "pyproject.toml [tool.poetry] packages"
    cfg = read_cfg(repo)
    if cfg.has_option("options", "package_dir"):
        for line in cfg.get("options", "package_dir").splitlines():
            k, _, v = line.partition("=")
            if k.strip() == "" and v.strip():
                return [v.strip()], "setup.cfg [options] package_dir"
    if cfg.has_option("options.packages.find", "where"):
        return [cfg.get("options.packages.find", "where").strip()], "setup.cfg [options.packages.find] where"
    sp = package_dir_from_setup_py(repo)
    if sp:
        return [sp], "setup.py package_dir"
    return None, None


def has_python(d, depth=0):
    if depth > 6:
        return False
    try:
        entries = list(os.scandir(d))
    except OSError:
        return False
    for e in entries:
        if e.is_file() and e.name.endswith(".py"):
            return True
        if e.is_dir(follow_symlinks=False) and not NOT_CODE.match(e.name) and has_python(e.path, depth + 1):
            return True
    return False


def packages_in(repo, root):
    base = os.path.normpath(os.path.join(repo, root))
    out = []
    try:
        entries = sorted(os.scandir(base), key=lambda e: e.name)
    except OSError:
        return out
    for e in entries:
        rel = os.path.normpath(os.path.join(root, e.name))
        if e.is_dir(follow_symlinks=False) and IDENT.match(e.name) and not (root == "." and NOT_CODE.match(e.name)):
            if os.path.isfile(os.path.join(e.path, "__init__.py")):
                out.append({"name": e.name, "path": rel, "namespace": False})
            elif has_python(e.path):
                out.append({"name": e.name, "path": rel, "namespace": True})
        elif e.is_file() and e.name.endswith(".py") and IDENT.match(e.name[:-3]) and not NOT_MODULE.match(e.name):
            out.append({"name": e.name[:-3], "path": rel, "namespace": False})
    return out


TEST_EXTRAS = ("test", "tests", "testing", "dev")
REQ_FILES = ("requirements/tests.txt", "requirements/test.txt", "requirements-test.txt", "requirements-tests.txt", "test-requirements.txt", "tests/requirements.txt", "requirements-dev.txt", "requirements.txt")


def test_requirements(repo):
    """The project's runtime dependencies and test extras / requirement files (for --deps)."""
    t = read_toml(repo)
    project = t.get("project", {}) if isinstance(t, dict) else {}
    reqs = [str(r) for r in project.get("dependencies", []) if isinstance(r, str)]
    extras = project.get("optional-dependencies", {})
    groups = t.get("dependency-groups", {}) if isinstance(t, dict) else {}
    for name in TEST_EXTRAS:
        reqs += [str(r) for r in extras.get(name, []) if isinstance(r, str)]
        reqs += [str(r) for r in groups.get(name, []) if isinstance(r, str)]
    cfg = read_cfg(repo)
    if cfg.has_option("options", "install_requires"):
        reqs += [l.strip() for l in cfg.get("options", "install_requires").splitlines() if l.strip()]
    for name in TEST_EXTRAS:
        if cfg.has_option("options.extras_require", name):
            reqs += [l.strip() for l in cfg.get("options.extras_require", name).splitlines() if l.strip()]
    reqs += setup_py_requires(repo)
    files = [f for f in REQ_FILES if os.path.isfile(os.path.join(repo, f))]
    return {"requirements": sorted(set(reqs)), "files": files}


def setup_py_requires(repo):
    """setup.py's install_requires, when it is a literal list of strings (parse only)."""
    p = os.path.join(repo, "setup.py")
    if not os.path.isfile(p):
        return []
    try:
        tree = ast.parse(open(p, "rb").read())
    except (SyntaxError, ValueError, RecursionError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "install_requires" and isinstance(node.value, (ast.List, ast.Tuple)):
            out += [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out


def layout(repo):
    roots, source = configured_roots(repo)
    kind = "configured"
    if roots:
        roots = [os.path.normpath(r) for r in roots if os.path.isdir(os.path.join(repo, r))] or None
    if not roots:
        src = packages_in(repo, "src")
        if src:
            roots, source, kind = ["src"], "a src/ folder holding packages", "src"
        else:
            roots, source, kind = ["."], "packages at the repo root", "flat"
    packages = [p for r in roots for p in packages_in(repo, r)]
    # A root folder with only namespace folders (no regular package or module) is a namespace layout.
    if packages and all(p["namespace"] for p in packages) and kind != "configured":
        kind = "namespace"
    # Regular packages beat namespace folders of the same root (a stray folder of scripts is not the project).
    if any(not p["namespace"] for p in packages):
        packages = [p for p in packages if not p["namespace"]] if kind != "configured" else packages
    return {"kind": kind, "roots": roots, "packages": packages, "source": source, "deps": test_requirements(repo)}


if __name__ == "__main__":
    json.dump(layout(sys.argv[1]), sys.stdout)
