"""Finds installed copies of a task's project inside a sandbox, so the grader can mask them.

Run as `python3 -I /opt/composer-lab/mask_scan.py JSON` inside the sandbox kind that will run the
task (the same interpreter, sys.path and root filesystem the agent's code and the tests see), with
the task's snapshot at /work. JSON: {"names": [import names], "dists": [distribution names]}.
Prints one JSON object:

  {"names": [...], "dists": [...],            what was looked for (packaging metadata adds dists)
   "entries": [{"path", "kind", "name", "why"}],   what to mask; kind: package (a folder Python would
       import: masked by a folder whose __init__ raises ImportError), module (a .py: masked by a
       module that raises ImportError), dir (metadata, docs: an empty folder), file (an empty file)
   "harness_needs": [...]}                     names pytest itself imports before any test runs

Where it looks: every sys.path folder (and the site-packages folders) for entries whose name, up to
the first '-' or '.', equals a wanted name case- and separator-insensitively; the RECORD /
installed-files.txt / top_level.txt of each matched metadata folder (files it installed elsewhere,
more import names); the dpkg file lists (/var/lib/dpkg/info/*.list) of the Debian packages owning
a match (their /usr/share/doc folder, and every file of a package that holds nothing else); wheel
and sdist archives in Debian's wheel folder and pip caches. Editable installs (whose code is the
repo at /work) and anything under /work or /opt/composer-lab are left alone.
"""
import json
import os
import re
import sys

REPO = "/work"
SKIP_ROOTS = (REPO, "/opt/composer-lab", "/proc", "/sys", "/dev")
ARCHIVE_DIRS = ["/usr/share/python-wheels", "/root/.cache/pip", "/tmp/.cache/pip", "/var/cache/pip"]


def norm(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def stem(entry):
    return re.split(r"[-.]", entry, 1)[0]


def skipped(path):
    return any(path == r or path.startswith(r + "/") for r in SKIP_ROOTS)


def read(path, limit=4 << 20):
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def dists_from_packaging():
    """The distribution names the repo's packaging metadata declares (parse only)."""
    out = []
    try:
        import tomllib

        with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
            t = tomllib.load(f)
        for n in (t.get("project", {}).get("name"), t.get("tool", {}).get("poetry", {}).get("name"), t.get("tool", {}).get("flit", {}).get("metadata", {}).get("module")):
            if isinstance(n, str):
                out.append(n)
    except Exception:
        pass
    m = re.search(r"^\[metadata\][^\[]*?^name\s*=\s*(\S+)", read(os.path.join(REPO, "setup.cfg")), re.M | re.S)
    if m:
        out.append(m.group(1))
    m = re.search(r"""\bname\s*=\s*["']([\w.-]+)["']""", read(os.path.join(REPO, "setup.py")))
    if m:
        out.append(m.group(1))
    return out


def is_editable(meta):
    """A metadata folder of an editable install: its code is the repo itself."""
    du = read(os.path.join(meta, "direct_url.json"))
    if '"editable": true' in du.replace(" ", "").replace('"editable":true', '"editable": true'):
        return True
    rec = read(os.path.join(meta, "RECORD"))
    return "__editable__" in rec or (rec and not re.search(r"^[^,]+\.py,", rec, re.M))


def harness_needs():
    """Top-level names pytest and the harness import before a test runs (cannot be masked there)."""
    before = set(sys.modules)
    try:
        import pytest  # noqa: F401
        import _pytest.config

        for name in _pytest.config.default_plugins:
            try:
                __import__("_pytest." + name)
            except Exception:
                pass
    except Exception:
        return []
    return sorted({m.split(".")[0] for m in set(sys.modules) - before})


PY_FILE = (".py", ".pyc", ".pyo", ".pyi", ".so", ".pyd", ".whl", ".egg", ".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".pth", ".egg-link", ".egg-info", ".dist-info")
INDEX_SKIP = SKIP_ROOTS + ("/tmp",)


def index_walk():
    """Every place on the visible filesystem that holds Python code or a Python archive, by name.

    Not only sys.path: a copy of the project vendored anywhere (an SDK's third_party folder, a local
    package index, another tool's lib/) is importable by path and readable. The index maps each
    normalized stem to its paths (a folder's with a trailing '/'): folders holding Python files, and Python-ish files (sources,
    bytecode, extensions, archives, metadata). Built once per sandbox root and cached by the caller.
    """
    out = {}
    listing = {}
    for root, dirs, files in os.walk("/", topdown=True):
        if any(root == r or root.startswith(r + "/") for r in INDEX_SKIP):
            dirs[:] = []
            continue
        # links are not followed (os.walk default); a folder link is indexed by its own name below
        code = sorted(f for f in files if f.endswith((".py", ".pyi", ".so")))
        if code or any(f.endswith(".pyc") for f in files):
            out.setdefault(norm(stem(os.path.basename(root))), []).append(root + "/")
            # its modules' names: the caller tells a copy of the project from an unrelated folder of the same name
            listing[root] = sorted({re.split(r"[.]", f, 1)[0] for f in code})
        for f in files:
            if f.endswith(PY_FILE):
                out.setdefault(norm(stem(f)), []).append(os.path.join(root, f))
        for d in dirs:
            p = os.path.join(root, d)
            if os.path.islink(p):
                out.setdefault(norm(stem(d)), []).append(p)
            elif d.endswith((".dist-info", ".egg-info")):
                out.setdefault(norm(stem(d)), []).append(p + "/")
    return out, listing


def main():
    req = json.loads(sys.argv[1])
    if req.get("index"):
        index, listing = index_walk()
        print(json.dumps({"index": index, "listing": listing}))
        return
    names = {norm(n) for n in req.get("names", []) if n}
    dists = set(req.get("dists", [])) | (set() if req.get("no_repo") else set(dists_from_packaging()))
    wanted = names | {norm(d) for d in dists}
    entries = {}

    def add(path, kind, name, why):
        path = os.path.normpath(path)
        if skipped(path) or path in entries:
            return
        # inside a folder already masked: nothing more to do
        for p in list(entries):
            if entries[p]["kind"] in ("package", "dir") and path.startswith(p + "/"):
                return
        for p in [p for p in entries if p.startswith(path + "/")]:
            del entries[p]
        entries[path] = {"path": path, "kind": kind, "name": name, "why": why}

    folders = list(sys.path)
    try:
        import site

        folders += site.getsitepackages() + [site.getusersitepackages()]
    except Exception:
        pass
    seen_folders = []
    for f in folders:
        f = os.path.realpath(f) if f else ""
        if f and os.path.isdir(f) and f not in seen_folders and not skipped(f):
            seen_folders.append(f)

    metas = []
    todo = set(wanted)
    done = set()
    while todo:
        want = todo - done
        if not want:
            break
        done |= want
        todo = set()
        for folder in seen_folders:
            try:
                listing = os.listdir(folder)
            except OSError:
                continue
            for e in listing:
                if norm(stem(e)) not in want:
                    continue
                p = os.path.join(folder, e)
                if e.endswith((".dist-info", ".egg-info")):
                    if os.path.isdir(p) and is_editable(p):
                        continue
                    metas.append(p)
                    add(p, "dir" if os.path.isdir(p) else "file", norm(stem(e)), "installed metadata in %s" % folder)
                    tl = read(os.path.join(p, "top_level.txt")) if os.path.isdir(p) else ""
                    for n in tl.split():
                        if norm(n) not in done:
                            todo.add(norm(n))
                elif os.path.isdir(p):
                    add(p, "package", norm(stem(e)), "an installed copy on sys.path (%s)" % folder)
                elif e.endswith(".py"):
                    add(p, "module", norm(stem(e)), "an installed module on sys.path (%s)" % folder)
                elif os.path.isfile(p):
                    add(p, "file", norm(stem(e)), "an installed file on sys.path (%s)" % folder)

    # files the metadata says the distribution installed elsewhere
    for m in metas:
        owner = norm(stem(os.path.basename(m)))
        base = os.path.dirname(m)
        rec = read(os.path.join(m, "RECORD"))
        for line in rec.splitlines():
            rel = line.split(",")[0]
            if rel:
                p = os.path.normpath(os.path.join(base, rel))
                if os.path.isfile(p) and not p.startswith(m + "/"):
                    add(p, "module" if p.endswith(".py") and os.path.dirname(p) in seen_folders else "file", owner, "listed in %s/RECORD" % os.path.basename(m))
        for line in read(os.path.join(m, "installed-files.txt")).splitlines():
            p = os.path.normpath(os.path.join(m, line.strip()))
            if line.strip() and os.path.isfile(p):
                add(p, "file", owner, "listed in %s/installed-files.txt" % os.path.basename(m))

    # Debian packages owning a match: their docs, and all of a package that holds only this project
    info = "/var/lib/dpkg/info"
    try:
        lists = [f for f in os.listdir(info) if f.endswith(".list")]
    except OSError:
        lists = []
    masked_now = list(entries)
    for lf in lists:
        files = [l for l in read(os.path.join(info, lf), 64 << 20).splitlines() if l]
        hits = [p for p in masked_now if any(f == p or f.startswith(p + "/") for f in files)]
        if not hits:
            continue
        owner = entries[hits[0]]["name"]
        pkg = lf[:-5].split(":")[0]
        own_py = [f for f in files if f.endswith(".py")]
        dedicated = all(any(f == p or f.startswith(p + "/") for p in masked_now) for f in own_py)
        for f in files:
            if not os.path.isfile(f) or os.path.islink(f):
                continue
            if f.startswith("/usr/share/doc/%s/" % pkg):
                add("/usr/share/doc/%s" % pkg, "dir", owner, "the documentation of the Debian package %s" % pkg)
            elif dedicated and not f.startswith(("/usr/share/lintian/", "/usr/share/man/")):
                add(f, "module" if f.endswith(".py") and os.path.dirname(f) in seen_folders else "file", owner, "a file of the Debian package %s" % pkg)

    # wheels and source archives of the project
    for d in ARCHIVE_DIRS:
        for root, dirs, files in os.walk(d):
            if root.count("/") - d.count("/") > 6:
                dirs[:] = []
            for f in files:
                if f.endswith((".whl", ".tar.gz", ".zip")) and norm(stem(f)) in done:
                    add(os.path.join(root, f), "file", norm(stem(f)), "an archive of the project in %s" % d)

    print(json.dumps({"names": sorted(done), "dists": sorted(dists), "entries": sorted(entries.values(), key=lambda e: e["path"]), "harness_needs": sorted(set(harness_needs()) & done), "path_folders": seen_folders, "archive_dirs": ARCHIVE_DIRS}))


main()
