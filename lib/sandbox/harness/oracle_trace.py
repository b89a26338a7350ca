"""composer-lab's build-time oracle tracer (issue 26): run the ORIGINAL implementation under its
target tests and record every call of the deleted symbols: arguments (as the strict serializer of
behave.py writes them, at call time), the return value or the raised exception's real class, and
the arguments after the call (mutations). Runs in the sandbox on the solved tree, never on an
agent's tree.

    python3 -I -B oracle_trace.py REQUEST.json -- PYTEST_ARGS...

REQUEST: {"repo": "/work", "roots": [...], "project": [...], "max_calls": 64,
          "targets": [{"file": "/work/pkg/mod.py", "qualname": "f"}]}
Output (on the stdout it had at start; pytest's own output goes to stderr), one JSON object a line:
    {"ev": "call", "symbol": i, "pos": [...], "kw": [[name, VALUE]...], "out": OUTCOME} or
    {"ev": "drop", "symbol": i, "why": "..."}; then {"ev": "end", "exit": pytest's exit status}.
"""
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import behave  # noqa: E402  (the same serializer grading uses)

CO_VARARGS, CO_VARKEYWORDS, CO_GENLIKE = 0x04, 0x08, 0x20 | 0x80 | 0x100 | 0x200


def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    req = behave._loads(open(argv[0], encoding="utf-8").read())
    pytest_args = argv[sep + 1:]
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    repo = req.get("repo", "/work")
    for root in reversed(req.get("roots") or ["."]):
        sys.path.insert(0, os.path.normpath(os.path.join(repo, root)))
    os.chdir(repo)
    ser = behave.Serializer(req.get("project") or [], req.get("max_nodes", 20000), req.get("max_chars", 200000))
    max_calls = req.get("max_calls", 64)
    keys = {}
    for i, t in enumerate(req["targets"]):
        keys[(os.path.realpath(t["file"]), t["qualname"])] = i
    counts = [0] * len(req["targets"])
    lock = threading.Lock()
    busy = threading.local()

    def write(obj):
        data = (behave.dumps(obj) + "\n").encode("ascii")
        with lock:
            while data:
                n = os.write(out_fd, data)
                data = data[n:]

    real = {}

    def key_of(code):
        f = real.get(code.co_filename)
        if f is None:
            f = real[code.co_filename] = os.path.realpath(code.co_filename)
        return (f, code.co_qualname)

    def global_trace(frame, event, arg):
        if event != "call" or getattr(busy, "on", False):
            return None
        code = frame.f_code
        i = keys.get(key_of(code))
        if i is None:
            return None
        if counts[i] >= max_calls:
            return None
        if code.co_flags & CO_GENLIKE:
            counts[i] += 1
            write({"ev": "drop", "symbol": i, "why": "a generator or coroutine function (its results arrive lazily)"})
            return None
        counts[i] += 1
        loc = frame.f_locals
        names = code.co_varnames
        npos = code.co_argcount
        nkw = code.co_kwonlyargcount
        pos_objs = [loc[n] for n in names[:npos]]
        k = npos + nkw
        kw_objs = [(n, loc[n]) for n in names[npos:k]]
        if code.co_flags & CO_VARARGS:
            pos_objs += list(loc[names[k]])
            k += 1
        if code.co_flags & CO_VARKEYWORDS:
            kw_objs += list(loc[names[k]].items())
        busy.on = True
        try:
            pos = [ser.value(a) for a in pos_objs]
            kw = [[n, ser.value(v)] for n, v in kw_objs]
        except behave.Unserializable as e:
            write({"ev": "drop", "symbol": i, "why": "arguments: %s" % e.args[0]})
            return None
        except Exception as e:
            write({"ev": "drop", "symbol": i, "why": "arguments: %s" % behave.exc_info(e)["type"]})
            return None
        finally:
            busy.on = False
        state = {"pending": None}

        def local(frame, event, arg):
            if event == "exception":
                state["pending"] = arg[1]
            elif event == "line":
                state["pending"] = None
            elif event == "return":
                busy.on = True
                try:
                    if state["pending"] is not None and arg is None:
                        o = {"k": "raise", "exc": behave.exc_info(state["pending"], ser)}
                    else:
                        o = {"k": "return", "ret": ser.value(arg)}
                    o["post"] = [ser.value(a) for a in pos_objs]
                    o["postkw"] = [[n, ser.value(v)] for n, v in kw_objs]
                except behave.Unserializable as e:
                    o = {"k": "unserializable", "why": e.args[0]}
                except Exception as e:
                    o = {"k": "unserializable", "why": "reading the value failed: %s" % behave.exc_info(e)["type"]}
                finally:
                    busy.on = False
                write({"ev": "call", "symbol": i, "pos": pos, "kw": kw, "out": o})
            return local

        return local

    import pytest

    threading.settrace(global_trace)
    sys.settrace(global_trace)
    try:
        code = pytest.main(pytest_args)
    finally:
        sys.settrace(None)
        threading.settrace(None)
    write({"ev": "end", "exit": int(code)})
    os._exit(0)


if __name__ == "__main__":
    main()
