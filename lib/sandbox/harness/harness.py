"""composer-lab's trusted pytest harness.

Run as `python3 -I -B /opt/composer-lab/harness.py REPO -- PYTEST_ARGS...` from outside the repo:
`-I` keeps the working directory, PYTHON* variables and user site-packages off sys.path, so
nothing in the repo can shadow this file, pytest, pluggy or the standard library modules imported
here. The repo is put on sys.path only after all of them are imported.

The warm grader (forkserver.py) imports this file once (`preload`) and calls `_harness` in each
forked grade with that grade's key, tag and channel fd; everything below then holds per grade.

Results channel: the one-time key and this run's tag arrive on stdin (read before anything else,
then stdin is closed); the process's original stdout becomes a private channel and fd 1 is pointed
at stderr, so pytest's terminal output and anything the code under test prints go to stderr. Every
record is HMAC-signed with the key and numbered; the grader drops lines that do not verify.

Code under test runs inside this process, so the harness also watches it at run time. All of the
harness's state lives in closures (nothing useful sits in this module's globals), and an audit hook
(PEP 578; once added it cannot be removed) records when code from a file the agent changed
(COMPOSER_LAB_UNTRUSTED, from the grader) takes a frame (sys._getframe, inspect.currentframe,
a traceback's tb_frame), walks the garbage collector, loads ctypes, makes a code object or function,
runs exec/eval/compile, or sets a trace/profile function. After every report and at session end it checks that the report factory,
the runner, the hook machinery and all builtins are the ones it started with; every plugin,
registered at any time, must come from trusted code (the system's read-only tree, a restored
conftest or named plugin) and be what its module says it is; no test item may have its runtest
shadowed or its function swapped for code from an untrusted file; no report may claim a pass for a
call that raised. Findings go into the signed session record as `tampered`. The static half of
tamper detection (what the agent's code names) lives in the grader's monitor.
"""
import os
import sys


def _read_stdin_line(limit=512):
    data = b""
    while not data.endswith(b"\n") and len(data) < limit:
        chunk = os.read(0, 1)
        if not chunk:
            break
        data += chunk
    return data.decode("ascii", "replace").strip()


def preload():
    """The import phase (the warm grader's zygote, forkserver.py, calls it once): pytest, its
    built-in plugins and what this harness uses, so a forked grade starts with them imported.
    Nothing of a repo is imported here and no test runs."""
    import builtins, hashlib, hmac, json, threading, types  # noqa: F401,E401
    import pytest  # noqa: F401
    import _pytest.config

    for name in _pytest.config.default_plugins:  # what every pytest.main registers
        __import__("_pytest." + name)
    for name in ("_pytest.main", "_pytest.outcomes", "_pytest.python", "_pytest.reports", "_pytest.runner", "_pytest.skipping",
                 "_pytest.assertion.rewrite", "_pytest.assertion.util", "_pytest._code", "_pytest._io", "_pytest._argcomplete", "pluggy"):
        __import__(name)
    # What a run imports later (the debugging plugin's pdb at configure time) and what test code
    # commonly does: the sandbox reads no bytecode (a private pycache prefix), so each of these
    # would be compiled from source in every grade.
    for name in ("pdb", "cmd", "code", "codeop", "faulthandler", "collections", "dataclasses", "decimal", "fractions", "itertools",
                 "functools", "re", "math", "random", "string", "datetime", "typing", "enum", "copy", "textwrap", "statistics",
                 "heapq", "bisect", "operator", "unittest", "unittest.mock", "contextlib", "tempfile", "pathlib", "subprocess", "getpass", "pwd"):
        try:
            __import__(name)
        except ImportError:
            pass
    _reuse_option_parsers()
    # What pytest.main builds before it reads any argument, config file or conftest: the plugin
    # manager with the built-in plugins registered (about half of a small run's CPU). Built for
    # the one blocked plugin the grader always names; a forked grade uses it once.
    config = _pytest.config.get_config(list(PREBUILT_ARGS))
    config._parser._getparser()  # its argparse parser for the built-in options, built once here
    _index_plugin_fixtures(config.pluginmanager)
    # inspect.getmodule (pytest's failure reports call it) maps every loaded module's file the first
    # time it runs: do that here for the modules every grade starts with.
    import inspect

    inspect.getmodule(preload.__code__)
    return {"config": config, "blocked": list(PREBUILT_ARGS)}


def _index_plugin_fixtures(pluginmanager):
    """Each session's fixture manager looks at every attribute of every registered plugin for
    fixtures (about 4,000 getattrs over the built-in plugin modules, touching each object, which a
    forked grade pays for page by page). Index once, in the zygote, which names of the built-in
    plugin modules hold fixtures; a grade's fixture manager then reads those names of an indexed
    module (a view with only them) and everything else as before. A module given new names since is
    read whole. pytest 7 only (how it spots a
    fixture, and what it does with a module, changed in 8)."""
    import types

    import pytest
    import _pytest.fixtures
    from _pytest.compat import safe_getattr

    if not pytest.__version__.startswith("7.") or getattr(_pytest.fixtures.FixtureManager.parsefactories, "composer_lab_index", None) is not None:
        return
    marker_of = _pytest.fixtures.getfixturemarker
    index = {}
    for plugin in pluginmanager.get_plugins():
        if isinstance(plugin, types.ModuleType):
            names = tuple(n for n in dir(plugin) if marker_of(safe_getattr(plugin, n, None)) is not None)
            index[id(plugin)] = (plugin, names, len(vars(plugin)))

    class FixtureNames:
        """An indexed plugin module as its fixture names alone."""

        def __init__(self, module, names):
            self._module, self._names = module, names

        def __dir__(self):
            return list(self._names)

        def __getattr__(self, name):
            return getattr(self._module, name)

    parse = _pytest.fixtures.FixtureManager.parsefactories

    def parsefactories(self, node_or_obj, *args, **kwargs):
        entry = index.get(id(node_or_obj)) if args or "nodeid" in kwargs else None
        # (a module given names since it was indexed is read whole, as pytest would)
        if entry is None or entry[0] is not node_or_obj or len(vars(node_or_obj)) != entry[2] or node_or_obj in self._holderobjseen:
            return parse(self, node_or_obj, *args, **kwargs)
        view = FixtureNames(node_or_obj, entry[1])
        parse(self, view, *args, **kwargs)
        self._holderobjseen.discard(view)
        self._holderobjseen.add(node_or_obj)

    parsefactories.composer_lab_index = index
    parsefactories.__doc__ = parse.__doc__
    _pytest.fixtures.FixtureManager.parsefactories = parsefactories


def _reuse_option_parsers():
    """pytest builds an argparse parser with every option from scratch on each parse of the
    command line (six times a run). Build it once per set of options instead: a parser is
    reused only while its Parser has the same option groups with the same number of options
    (options are only ever added), so a conftest or plugin that adds one gets a fresh parser.
    argparse does not change a parser while parsing."""
    from _pytest.config.argparsing import Parser

    build = Parser._getparser
    if getattr(build, "composer_lab_reuses", False):
        return

    def _getparser(self):
        try:
            groups = self._groups + [self._anonymous]
            key = (self.prog, tuple((id(g), g.description, len(g.options)) for g in groups))
        except AttributeError:  # a pytest whose Parser keeps its options otherwise: build as it does
            return build(self)
        cached = self.__dict__.get("_composer_lab_optparser")
        if cached is not None and cached[0] == key:
            return cached[1]
        optparser = build(self)
        self.__dict__["_composer_lab_optparser"] = (key, optparser)
        return optparser

    _getparser.composer_lab_reuses = True
    _getparser.__doc__ = build.__doc__
    Parser._getparser = _getparser


PREBUILT_ARGS = ("-p", "no:cacheprovider")


def _blocked_plugins(args):
    """The `-p no:NAME` arguments, read as pytest's consider_preparse reads them."""
    out, i = [], 0
    while i < len(args):
        opt = args[i]
        i += 1
        if not isinstance(opt, str):
            continue
        if opt == "-p":
            if i >= len(args):
                break
            parg = args[i]
            i += 1
        elif opt.startswith("-p"):
            parg = opt[2:]
        else:
            continue
        if parg.strip().startswith("no:"):
            out.append(parg.strip())
    return out


def _harness(secret_line=None, channel=None, trace=None, prepared=None):
    """The harness for one run; returns its `main`. Cold: `_harness()()` reads the key and tag from
    stdin and keeps the original stdout as the channel."""
    return _build(prepared)(secret_line, channel, trace)


def _build(prepared=None):
    """Builds the harness: its identity snapshots of pytest, pluggy and builtins, its checks and
    the results plugin; everything it keeps is local to this call. Returns `configure(secret_line,
    channel, trace)`, which sets this run's key, tag, channel and repo settings and returns `main`.
    The warm zygote (forkserver.py) builds once, before any grade, and each forked grade configures
    its own copy: the snapshots are of the same objects, taken before any repo code exists."""
    key, tag, channel, trace = b"", "-", None, None
    import builtins
    import hashlib
    import hmac
    import itertools
    import json
    import operator
    import threading
    import types

    import pytest
    import _pytest.main
    import _pytest.outcomes
    import _pytest.python
    import _pytest.reports
    import _pytest.runner
    import _pytest.skipping

    seq = [0]
    write_lock = threading.Lock()

    def write(obj):
        with write_lock:
            obj = dict(obj, seq=seq[0])
            seq[0] += 1
            body = json.dumps(obj, sort_keys=True)
            sig = hmac.new(key, body.encode(), hashlib.sha256).hexdigest() if key else ""
            view = memoryview(("@composer-lab %s %s\n" % (tag, json.dumps({"r": body, "s": sig}))).encode())
            while view:
                view = view[os.write(channel, view):]

    # This run's repo settings (configure sets them; the checks below read them when they run).
    repo, trusted_repo_files, untrusted, project_paths, project_modules = "/work", set(), {}, [], set()
    untrusted_listed = False
    # the conftest files the grader restored (None: any conftest.py in the repo, as before); one the
    # code under test writes into a writable grading tree at run time is not among them
    trusted_conftests = None
    tampered = []

    def tamper(reason):
        if reason not in tampered and len(tampered) < 20:
            tampered.append(reason)

    real_cache = {}

    def real(filename):
        r = real_cache.get(filename)
        if r is None:
            try:
                r = os.path.realpath(filename)
            except (TypeError, ValueError):
                r = ""
            real_cache[filename] = r
        return r

    def in_repo(filename):
        r = real(filename)
        return r == repo or r.startswith(repo + os.sep)

    def trusted_file(filename):
        """Code from outside the repo (the system's read-only tree), or a conftest / named plugin the
        grader restored from the task snapshot, and never a file the agent changed."""
        if not filename or filename.startswith("<"):
            return False
        if real(filename) in untrusted:
            return False
        if not in_repo(filename):
            return True
        if real(filename) in trusted_repo_files:
            return True
        return os.path.basename(real(filename)) == "conftest.py" and (trusted_conftests is None or real(filename) in trusted_conftests)

    # --- run-time audit (PEP 578) -----------------------------------------------------------
    watched = {
        "sys._getframe": "frame", "sys._current_frames": "frame", "object.__getattr__": None,
        "gc.get_objects": "gc", "gc.get_referrers": "gc", "gc.get_referents": "gc",
        "sys.settrace": "trace", "sys.setprofile": "trace", "sys.addaudithook": "audit",
        "ctypes.dlopen": "ctypes", "ctypes.dlsym": "ctypes", "ctypes.addressof": "ctypes", "ctypes.string_at": "ctypes",
        "ctypes.cdata": "ctypes", "ctypes.PyObj_FromPtr": "ctypes",
        "exec": "exec", "compile": "exec", "function.__new__": "exec", "code.__new__": "exec",
    }
    # (reading __code__ is audited too, but C extensions and inspect do it on a caller's behalf)
    getattr_kinds = {"tb_frame": "frame", "gi_frame": "frame", "cr_frame": "frame", "ag_frame": "frame"}
    busy = threading.local()
    getframe = sys._getframe
    stdlib = os.path.dirname(os.path.realpath(os.__file__)) + os.sep

    def audit(event, args):
        if event not in watched or getattr(busy, "on", False):
            return
        kind = watched[event]
        if getattr(busy, "on", False):
            return
        if kind is None:  # object.__getattr__(obj, name)
            kind = getattr_kinds.get(args[1] if len(args) > 1 else "")
            if kind is None:
                return
        busy.on = True
        try:
            frame = getframe(1)
            if event in ("code.__new__", "function.__new__"):
                # Building code or functions by hand is what laundering looks like: look past the
                # standard library (pickle, copyreg, types...) to who asked. Extension modules make
                # code objects while being imported: those calls come from importlib itself.
                if frame is None or frame.f_code.co_filename.startswith("<frozen importlib"):
                    return
                f = frame
                while f is not None and real(f.f_code.co_filename).startswith(stdlib) and "-packages" not in f.f_code.co_filename:
                    f = f.f_back
                allowed = untrusted.get(real(f.f_code.co_filename)) if f is not None else None
                if allowed is not None and "exec" not in allowed:
                    tamper("%s:%d: %s reached from code the agent changed" % (os.path.relpath(real(f.f_code.co_filename), repo), f.f_lineno, event))
                return
            # inspect.currentframe / inspect.stack are thin wrappers: look past them
            while kind == "frame" and frame is not None and os.path.basename(frame.f_code.co_filename) == "inspect.py":
                frame = frame.f_back
            if frame is None:
                return
            allowed = untrusted.get(real(frame.f_code.co_filename))
            if allowed is not None and kind not in allowed:
                what = "%s.%s" % (type(args[0]).__name__, args[1]) if event == "object.__getattr__" else event
                tamper("%s:%d: %s (code the agent changed reached for %s)" % (os.path.relpath(real(frame.f_code.co_filename), repo), frame.f_lineno, what, kind))
        finally:
            busy.on = False


    # --- identity checks ---------------------------------------------------------------------
    def lookup(path):
        obj = sys.modules[path[0]]
        for part in path[1:]:
            obj = obj.__dict__[part] if isinstance(obj, type) else getattr(obj, part)
        return obj

    critical_paths = [
        ("_pytest.runner", "call_and_report"), ("_pytest.runner", "runtestprotocol"), ("_pytest.runner", "call_runtest_hook"),
        ("_pytest.runner", "pytest_runtest_makereport"), ("_pytest.runner", "CallInfo"), ("_pytest.runner", "CallInfo", "from_call"),
        ("_pytest.reports", "TestReport"), ("_pytest.reports", "TestReport", "from_item_and_call"), ("_pytest.reports", "CollectReport"),
        ("_pytest.reports", "BaseReport", "passed"), ("_pytest.reports", "BaseReport", "failed"), ("_pytest.reports", "BaseReport", "skipped"),
        ("_pytest.python", "pytest_pyfunc_call"), ("_pytest.python", "Function"), ("_pytest.python", "Function", "runtest"),
        ("_pytest.skipping", "pytest_runtest_makereport"), ("_pytest.main", "pytest_runtestloop"),
        ("_pytest.outcomes", "fail"), ("_pytest.outcomes", "skip"), ("_pytest.outcomes", "exit"), ("pytest", "main"),
    ]
    for module, names in (("pluggy._callers", ("_multicall",)), ("pluggy._hooks", ("_HookCaller", "HookCaller"))):
        try:
            mod = __import__(module, fromlist=["_"])
        except ImportError:
            continue
        for name in names:
            if hasattr(mod, name):
                critical_paths.append((module, name, "__call__") if name.endswith("HookCaller") else (module, name))
    critical = {path: lookup(path) for path in critical_paths}

    # Every attribute of pytest's and pluggy's modules and of the classes they define, by identity:
    # "hot" ones (what a test's outcome is made of) after every call, all of them at the end.
    hot_modules = {"pytest", "_pytest.python_api", "_pytest.outcomes", "_pytest.runner", "_pytest.reports", "_pytest.python", "_pytest.skipping", "_pytest.raises", "_pytest.recwarn", "_pytest.fixtures"}

    def namespace_snapshot(names):
        snap = []
        for name in names:
            mod = sys.modules.get(name)
            if mod is None:
                continue
            d = vars(mod)
            snap.append((name, d, dict(d)))
            for v in list(d.values()):
                if isinstance(v, type) and v.__module__ == name:
                    cd = v.__dict__
                    snap.append(("%s.%s" % (name, v.__qualname__), cd, dict(cd)))
        return snap

    keys_at_build = {n: set(vars(sys.modules[n])) for n in sys.modules if n == "pytest" or n.startswith(("_pytest.", "pluggy"))}

    def check_new_names():
        """Code published into pytest's or pluggy's modules after start-up (a plugin class made to
        look like pytest's own)."""
        for name, keys in keys_at_build.items():
            mod = harness_modules.get(name, sys.modules.get(name))
            for k in set(vars(mod)) - keys if mod is not None else ():
                v = vars(mod)[k]
                if isinstance(v, (type, types.FunctionType)):
                    tamper("%s.%s appeared after start-up" % (name, k))

    # Bound now, before any repo code runs: code under test cannot swap them for liars later.
    all_of, each, is_same, repeat = builtins.all, builtins.map, operator.is_, itertools.repeat

    def unchanged(live, was):
        """Whether `live` still holds each value of the snapshot `was` under its key: the common
        case, checked by C code alone (each check runs after every test phase; the loops below say
        what changed). A dict's keys and values iterate in the same order."""
        return all_of(each(is_same, each(live.get, was, repeat(missing)), was.values()))

    def lazy_init(where, obj):
        """A module global pytest fills in on first use (round 4, G2: `_pytest.doctest.RUNNER_CLASS`
        and `CHECKER_CLASS`, None until a doctest runs): a class of that module whose every method
        was compiled from the module's own file (outside the repo)."""
        mod = sys.modules.get(where)
        source = getattr(mod, "__file__", None)
        if not isinstance(obj, type) or obj.__module__ != where or not source or in_repo(source):
            return False
        codes = [getattr(f, "__code__", None) for f in vars(obj).values() if isinstance(f, types.FunctionType)]
        return bool(codes) and all(c is not None and real(c.co_filename) == real(source) for c in codes)

    def check_snapshot(snap):
        for where, live, was in snap:
            if unchanged(live, was):
                continue
            for k, v in was.items():
                if live.get(k, v if k in live else None) is not v:
                    if v is None and lazy_init(where, live.get(k)):
                        was[k] = live[k]  # pytest's own, set once; a later swap is still caught
                        continue
                    tamper("%s.%s was replaced" % (where, k))
                    break

    # The hot namespaces are fixed now (pytest does not change them while configuring); all of them
    # are taken again once configuration is done (pytest sets some class attributes then).
    all_names = sorted(n for n in sys.modules if n == "pytest" or n.startswith(("_pytest.", "pluggy")))
    snap_hot = namespace_snapshot([n for n in all_names if n in hot_modules])
    snap_all = []
    builtin_ids = dict(builtins.__dict__)
    harness_modules = {name: mod for name, mod in sys.modules.items() if name == "pytest" or name.startswith(("_pytest", "pluggy"))}
    missing = object()
    meta_path_start = {id(f) for f in sys.meta_path}
    state = {"pm": None, "hookexec": None}
    made = {}  # (nodeid, phase) -> the outcome its report had when makereport returned

    def check_identities():
        for path, obj in critical.items():
            try:
                now = lookup(path)
            except Exception:
                now = None
            if now is not obj:
                tamper("%s was replaced" % ".".join(path))
        now = builtins.__dict__
        if not unchanged(now, builtin_ids):
            for name, obj in builtin_ids.items():
                if now.get(name) is not obj:
                    tamper("builtins.%s was rebound" % name)
        if not unchanged(sys.modules, harness_modules):
            for name, mod in harness_modules.items():
                if sys.modules.get(name) is not mod and name not in evicted:
                    tamper("sys.modules[%r] was replaced" % name)
        for finder in sys.meta_path:
            if id(finder) not in meta_path_start and not trusted_plugin(finder) and not project_finder(finder):
                tamper("an import hook from untrusted code was installed (%s)" % plugin_source(finder))
        pm = state["pm"]
        if pm is not None:
            if getattr(pm, "_inner_hookexec", None) is not state["hookexec"]:
                tamper("the plugin manager's hook executor was replaced")
            if not pm.is_registered(plugin):
                tamper("the results plugin was unregistered")

    def plugin_source(obj):
        if isinstance(obj, types.ModuleType):
            return getattr(obj, "__file__", None)
        cls = obj if isinstance(obj, type) else type(obj)
        return getattr(sys.modules.get(cls.__module__), "__file__", None)

    def resolvable(cls):
        """A class is what it says it is when its module really holds it under its name."""
        obj = sys.modules.get(cls.__module__)
        for part in cls.__qualname__.split("."):
            if obj is None or part == "<locals>":
                return part == "<locals>" and obj is not None and trusted_file(getattr(sys.modules.get(cls.__module__), "__file__", None))
            obj = getattr(obj, part, None)
        return obj is cls

    def project_finder(obj):
        """An import hook the project itself installs (round 4, G1: toolz's `tlz` loader, at import):
        its class lives in a repo file the agent did not add or change (the grader lists every file it
        did), or in a changed file whose original code already worked with import hooks (the
        grader's baseline kind "import_hook")."""
        if not untrusted_listed or isinstance(obj, types.ModuleType):
            return False
        cls = obj if isinstance(obj, type) else type(obj)
        source = plugin_source(obj)
        if not source or not in_repo(source) or not resolvable(cls):
            return False
        return real(source) not in untrusted or "import_hook" in untrusted[real(source)]

    def trusted_plugin(obj):
        if obj is plugin:
            return True
        if not trusted_file(plugin_source(obj)):
            return False
        if isinstance(obj, types.ModuleType):
            return True
        return resolvable(obj if isinstance(obj, type) else type(obj))

    def trusted_function(fn):
        code = getattr(fn, "__code__", None)
        if code is None or not trusted_file(code.co_filename):
            return False
        mod = sys.modules.get(getattr(fn, "__module__", None) or "")
        return mod is not None and trusted_file(getattr(mod, "__file__", None))

    def check_plugins():
        pm = state["pm"]
        if pm is None:
            return
        for name, p in pm.list_name_plugin():
            if p is not None and not trusted_plugin(p):
                tamper("plugin %r comes from untrusted code (%s)" % (name, plugin_source(p)))
        for hookname, caller in vars(pm.hook).items():
            impls = getattr(caller, "get_hookimpls", None)
            for impl in impls() if impls is not None else ():
                if impl.plugin is not plugin and not trusted_function(impl.function):
                    code = getattr(impl.function, "__code__", None)
                    tamper("hook %s is implemented by untrusted code (%s)" % (hookname, getattr(code, "co_filename", "?")))

    method_names = {"runtest", "setup", "teardown", "repr_failure", "_getobj", "reportinfo", "_prunetraceback"}

    def check_item(item):
        shadowed = method_names & set(vars(item))
        if shadowed:
            tamper("%s: %s shadowed on the test item" % (item.nodeid, ", ".join(sorted(shadowed))))
        fn = getattr(item, "obj", None)
        code = getattr(fn, "__code__", None)
        if code is not None and real(code.co_filename) in untrusted:
            tamper("%s: the test function was replaced by code from %s" % (item.nodeid, os.path.relpath(real(code.co_filename), repo)))

    def longrepr(report):
        return str(report.longrepr)[-2000:] if report.longrepr else None

    shadow_seen = set()
    # Project modules pytest itself had imported from the system (pluggy, attrs under pytest 7):
    # taken out of sys.modules before the tests run, so the tests import the repo's copy while
    # pytest keeps the objects it already holds. pytest's own names are never taken out.
    evicted = set()

    # sys.modules by top-level name as the build left it (a warm grade's main starts with exactly
    # these: only the harness runs in between), so a grade need not walk every module's name.
    modules_by_top = {}
    for name in sys.modules:
        modules_by_top.setdefault(name.split(".")[0], []).append(name)
    modules_at_build = len(sys.modules)

    def evict_installed_copies():
        tops = project_modules - {"pytest", "_pytest", "py"}
        if len(sys.modules) == modules_at_build:
            names = [n for top in tops for n in modules_by_top.get(top, ()) if n in sys.modules]
        else:
            names = [n for n in list(sys.modules) if n.split(".")[0] in tops]
        for name in names:
            where = getattr(sys.modules[name], "__file__", None)
            if where and not in_repo(where):
                del sys.modules[name]
                evicted.add(name)

    def check_shadows():
        """A project module the tests imported from outside the repo (an installed copy) is reported."""
        for name in sorted(n for n in list(sys.modules) if n.split(".")[0] in project_modules):
            if name in shadow_seen:
                continue
            mod = sys.modules.get(name)
            where = getattr(mod, "__file__", None)
            places = [where] if where else [p for p in (getattr(mod, "__path__", None) or []) if isinstance(p, str)]
            if places and not any(in_repo(p) for p in places):
                shadow_seen.add(name)
                write({"nodeid": name, "phase": "shadow", "outcome": "error", "longrepr": places[0]})

    class ResultsPlugin:
        """Writes one signed record per test report and collection error, and the verdict at the end."""

        @pytest.hookimpl(tryfirst=True)
        def pytest_configure(self, config):
            state["pm"] = config.pluginmanager
            state["hookexec"] = getattr(config.pluginmanager, "_inner_hookexec", None)
            check_plugins()

        def pytest_plugin_registered(self, plugin, manager):
            if not trusted_plugin(plugin):
                tamper("plugin %r registered from untrusted code (%s)" % (manager.get_name(plugin), plugin_source(plugin)))

        @pytest.hookimpl(hookwrapper=True, tryfirst=True)
        def pytest_runtest_makereport(self, item, call):
            # Checked between the phase and its report: a patch that puts itself back once the
            # report is built is still in place here, and the phase's exception is still on `call`.
            raised = call.excinfo
            check_identities()
            if call.when == "call":
                check_snapshot(snap_hot)
            outcome = yield
            report = outcome.get_result()
            if raised is not None and getattr(report, "outcome", None) == "passed":
                tamper("%s: the %s phase raised %s but its report says passed" % (item.nodeid, call.when, raised.typename))
            made[(item.nodeid, call.when)] = getattr(report, "outcome", None)

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_call(self, item):
            check_item(item)

        def pytest_collectreport(self, report):
            if report.failed:
                write({"nodeid": report.nodeid, "phase": "collect", "outcome": "error", "longrepr": longrepr(report)})

        @pytest.hookimpl(trylast=True)
        def pytest_sessionstart(self, session):
            if trace:
                trace("configured")
            check_snapshot(snap_hot)
            if trace:
                trace("snapshot all")
            snap_all[:] = namespace_snapshot(sorted(n for n in sys.modules if n == "pytest" or n.startswith(("_pytest.", "pluggy"))))

        @pytest.hookimpl(trylast=True)
        def pytest_collection_finish(self, session):
            if trace:
                trace("collected")
            check_identities()
            check_snapshot(snap_all)
            check_new_names()
            check_plugins()
            for item in session.items:
                check_item(item)
            check_shadows()

        @pytest.hookimpl(trylast=True)
        def pytest_runtest_logreport(self, report):
            check_identities()
            was = made.pop((report.nodeid, report.when), report.outcome)
            if was != report.outcome:
                tamper("%s: the %s report said %s when it was made and %s when it was logged" % (report.nodeid, report.when, was, report.outcome))
            if report.when == "call":
                check_snapshot(snap_hot)
            rec = {"nodeid": report.nodeid, "phase": report.when, "outcome": report.outcome, "duration": round(report.duration, 6)}
            if hasattr(report, "wasxfail"):
                rec["wasxfail"] = True
            if report.failed or (report.skipped and report.when != "call"):
                rec["longrepr"] = longrepr(report)
            write(rec)

        @pytest.hookimpl(trylast=True)
        def pytest_sessionfinish(self, session, exitstatus):
            check_identities()
            check_snapshot(snap_all)
            check_new_names()
            check_plugins()
            check_shadows()
            write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": int(exitstatus), "tampered": list(tampered)})

    plugin = ResultsPlugin()
    if prepared is not None:
        # The zygote's prebuilt configuration gets the results plugin now: registering it replays
        # every built-in plugin's registration through its checks (the same answers in every
        # grade: they are the system's own files), once here instead of in each grade.
        prepared["config"].pluginmanager.register(plugin)

    def main():
        argv = sys.argv[1:]
        if "--" in argv:
            argv = argv[argv.index("--") + 1:]
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        for var in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "COMPOSER_LAB_UNTRUSTED", "COMPOSER_LAB_TRUSTED_PLUGINS", "COMPOSER_LAB_TRUSTED_CONFTESTS", "COMPOSER_LAB_PATHS", "COMPOSER_LAB_PROJECT"):
            os.environ.pop(var, None)
        sys.path.insert(0, repo)  # the repo's own packages, as `python -m pytest` run from it would see them
        for p in reversed(project_paths):  # its package roots (src/ ...) before anything installed
            if os.path.realpath(p) != repo:
                sys.path.insert(0, p)
        evict_installed_copies()
        if prepared is not None and _blocked_plugins(argv) == _blocked_plugins(prepared["blocked"]):
            # pytest.main exactly, but its first step (get_config) hands over the configuration
            # the warm zygote built; get_config is itself again before any config or repo code runs.
            import _pytest.config
            from pathlib import Path

            original, config = _pytest.config.get_config, prepared.pop("config")

            def prebuilt_config(args=None, plugins=None):
                _pytest.config.get_config = original
                if trace:
                    trace("prebuilt config")
                config.invocation_params = _pytest.config.Config.InvocationParams(args=args or (), plugins=[plugin], dir=Path.cwd())
                return config

            _pytest.config.get_config = prebuilt_config
            plugins = []  # the results plugin is registered with the prebuilt configuration
        else:
            plugins = [plugin]
        if trace:
            trace("pytest.main")
        code = pytest.main(argv, plugins=plugins)
        if trace:
            trace("pytest done")
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(code))  # skip atexit handlers the code under test may have registered

    def configure(secret_line=None, run_channel=None, run_trace=None):
        nonlocal key, tag, channel, trace, repo, trusted_repo_files, untrusted, untrusted_listed, project_paths, project_modules, trusted_conftests
        if run_channel is None:
            secret = _read_stdin_line().split()
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.close(devnull)
            channel = os.dup(1)  # non-inheritable: subprocesses started by tests do not get it
            os.dup2(2, 1)
        else:
            secret = secret_line.split()
            channel = run_channel
        key = secret[0].encode() if secret else b""
        tag = secret[1] if len(secret) > 1 else "-"
        del secret
        trace = run_trace
        repo = os.path.realpath(sys.argv[1]) if len(sys.argv) > 1 else "/work"
        trusted_repo_files = {os.path.realpath(os.path.join(repo, p)) for p in os.environ.get("COMPOSER_LAB_TRUSTED_PLUGINS", "").split(":") if p}
        try:
            listed = os.environ.get("COMPOSER_LAB_TRUSTED_CONFTESTS")
            trusted_conftests = None if listed is None else {os.path.realpath(os.path.join(repo, p)) for p in json.loads(listed)}
        except ValueError:
            trusted_conftests = set()
        # listed: the grader said which files the agent touched (else no repo file counts as the project's own)
        try:
            listed = os.environ.get("COMPOSER_LAB_UNTRUSTED")
            untrusted_listed = listed is not None
            untrusted = {os.path.realpath(os.path.join(repo, f)): set(allowed) for f, allowed in json.loads(listed or "{}").items()}
        except ValueError:
            untrusted, untrusted_listed = {}, False
        # The project's own package roots (first on sys.path) and top-level modules (checked after
        # collection: each one the tests imported must come from the repo, not an installed copy).
        try:
            project_paths = [os.path.join(repo, p) for p in json.loads(os.environ.get("COMPOSER_LAB_PATHS") or "[]")]
            project_modules = set(json.loads(os.environ.get("COMPOSER_LAB_PROJECT") or "[]"))
        except ValueError:
            project_paths, project_modules = [], set()
        if untrusted:
            sys.addaudithook(audit)
        return main

    return configure


if __name__ == "__main__":
    _harness()()
