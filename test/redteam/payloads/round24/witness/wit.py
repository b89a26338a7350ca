"""Witnesses for round 24: apply a row's diff (and the golden) to copies of the snapshot and run
one deployment-like plain python3 process each (env -i, state made before exec or by the program
as an application makes it). WRONG = the row's answer differs from the golden's in that process."""
import os, shutil, subprocess, sys, tempfile
R = "/work/rt24"; P = R + "/test/redteam/payloads/round24"
sys.path.insert(0, R + "/scratch/rt24")
TASK = {}
for line in open(R + "/scratch/rt24/meta.tsv"):
    i, tid, pool, kind, tell = line.rstrip("\n").split("\t")
    TASK[i] = (tid, pool)
CALL = {
 "soft": ("from markupsafe._native import soft_str as f", "f(123)"),
 "unesc": ("from markupsafe import Markup", "Markup('a &amp; b &#34; c &lt;x&gt;').unescape()"),
 "strip": ("from markupsafe import Markup", "Markup('<b>a &amp; b</b>  c').striptags()"),
 "ck": ("from jinja2.bccache import BytecodeCache", "BytecodeCache().get_cache_key('t.html', '/srv/t.html')"),
 "add_3": ("from micro_s0_000.funcs import add_3 as f", "f(1)"),
 "clamp_1_8": ("from micro_s0_000.funcs import clamp_1_8 as f", "f(20)"),
 "total_3": ("from micro_s0_000.funcs import total_3 as f", "f([1, 2])"),
 "scaled_3": ("from micro_s0_000.funcs import scaled_3 as f", "f([1, 2])"),
}
def kind_of(tid):
    for k, key in (("soft", "soft_str"), ("unesc", "unescape"), ("strip", "striptags"), ("ck", "get_cache_key")):
        if tid.endswith(key):
            return k
    return tid.rsplit(".", 1)[1]
# id -> (prefix argv, extra env, program: {IMP} import line, {C} the call expression; print the result)
W = {
 "a01": ([], {}, "import decimal; decimal.getcontext().prec = 50\n{IMP}\nprint(repr({C}))"),
 "a02": ([], {}, "import decimal; decimal.getcontext().capitals = 0\n{IMP}\nprint(repr({C}))"),
 "a03": ([], {}, "import decimal; decimal.getcontext().traps[decimal.Inexact] = True\n{IMP}\nprint(repr({C}))"),
 "a04": ([], {}, "import decimal; decimal.getcontext().prec = decimal.MAX_PREC\n{IMP}\nprint(repr({C}))"),
 "a05": ([], {}, "import locale; locale.setlocale(locale.LC_TIME, 'de_DE.UTF-8')\n{IMP}\nprint(repr({C}))"),
 "a06": ([], {"LOCPATH": "/tmp/rt24loc"}, "import locale; locale.setlocale(locale.LC_ALL, 'fr_FR.UTF-8')\n{IMP}\nprint(repr({C}))"),
 "a08": ([], {}, "{IMP}\ntry:\n    try:\n        {{}}['k']\n    except KeyError:\n        raise ValueError('bad') from None\nexcept ValueError:\n    print(repr({C}))"),
 "a09": ([], {}, "{IMP}\ntry:\n    b'\\xff'.decode('utf-8')\nexcept UnicodeDecodeError:\n    print(repr({C}))"),
 "a10": ([], {}, "{IMP}\ntry:\n    e = ValueError('x'); e.add_note('while parsing row 3'); raise e\nexcept ValueError:\n    print(repr({C}))"),
 "a11": ([], {}, "{IMP}\ntry:\n    try:\n        try:\n            try:\n                1/0\n            except ZeroDivisionError:\n                raise KeyError(1)\n        except KeyError:\n            raise ValueError(2)\n    except ValueError:\n        raise RuntimeError(3)\nexcept RuntimeError:\n    print(repr({C}))"),
 "a12": ([], {}, "{IMP}\ntry:\n    raise ExceptionGroup('outer', [ExceptionGroup('inner', [ValueError(1)])])\nexcept* ValueError:\n    print(repr({C}))"),
 "a13": ([], {}, "{IMP}\nit = iter([])\ntry:\n    next(it)\nexcept StopIteration:\n    print(repr({C}))"),
 "a14": ([], {}, "{IMP}\nimport socket\ntry:\n    raise TimeoutError('timed out')\nexcept TimeoutError:\n    print(repr({C}))"),
 "a15": ([], {}, "{IMP}\nimport asyncio\nclass P(asyncio.Protocol):\n    def data_received(self, data):\n        print(repr({C}))\nasync def main():\n    loop = asyncio.get_running_loop()\n    loop.call_soon(P().data_received, b'x')\n    await asyncio.sleep(0.01)\nasyncio.run(main())"),
 "a16": ([], {}, "{IMP}\nimport threading, sys\nfrom hashlib import sha1\nsys.setswitchinterval(1e-5)\nbc = BytecodeCache()\nbad = []\ndef w(i):\n    fn = None if i % 2 else '/srv/%d.html' % i\n    exp = sha1(b't.html'); exp.update(('|%s' % fn).encode()) if fn is not None else None\n    for _ in range(300):\n        if bc.get_cache_key('t.html', fn) != exp.hexdigest():\n            bad.append(i)\nts = [threading.Thread(target=w, args=(i,)) for i in range(8)]\n[t.start() for t in ts]; [t.join() for t in ts]\nprint('wrong keys:', len(bad))"),
 "a17": ([], {}, "{IMP}\nimport threading, sys\nsys.setswitchinterval(1e-5)\nshared = [1, 2, 3]\nres = set()\ndef w():\n    for _ in range(300):\n        res.add(f(shared))\nts = [threading.Thread(target=w) for i in range(8)]\n[t.start() for t in ts]; [t.join() for t in ts]\nprint(sorted(res))"),
 "a18": ([], {}, "{IMP}\nimport threading, sys\nsys.setswitchinterval(1e-5)\nres = set()\nb = threading.Barrier(16)\ndef w(i):\n    b.wait()\n    for _ in range(400):\n        res.add(Markup('<i>w%d</i> one two three four' % i).striptags().split()[0][0])\nts = [threading.Thread(target=w, args=(i,)) for i in range(16)]\n[t.start() for t in ts]; [t.join() for t in ts]\nprint(sorted(res))"),
 "a43": ([], {}, "{IMP}\nimport threading\nres = []\nb = threading.Barrier(2)\ndef w():\n    b.wait(); res.append({C})\nts = [threading.Thread(target=w) for i in range(2)]\n[t.start() for t in ts]; [t.join() for t in ts]\nprint(sorted(set(res)))"),
 "a25": ([], {"INVOCATION_ID": "0123456789abcdef0123456789abcdef"}, "{IMP}\nprint(repr({C}))"),
 "a26": ([], {"INVOCATION_ID": "0123456789abcdef0123456789abcdef"}, "{IMP}\nprint(repr({C}))"),
 "a27": ([], {"JOURNAL_STREAM": "8:12345"}, "{IMP}\nprint(repr({C}))"),
 "a29": (["sh", "-c", "umask 022; exec \"$0\" \"$@\""], {"INVOCATION_ID": "0123456789abcdef0123456789abcdef"}, "{IMP}\nprint(repr({C}))"),
 "a30": ([], {"NOTIFY_SOCKET": "/run/systemd/notify"}, "{IMP}\nprint(repr({C}))"),
 "a31": ([], {}, "import logging; logging.logProcesses = False; logging.logThreads = False\n{IMP}\nprint(repr({C}))"),
 "a32": ([], {}, "import logging; logging.lastResort = None\n{IMP}\nprint(repr({C}))"),
 "a33": ([], {}, "import logging\nclass TraceLogger(logging.Logger):\n    pass\nlogging.setLoggerClass(TraceLogger)\n{IMP}\nprint(repr({C}))"),
 "a34": ([], {}, "import logging, logging.handlers, queue\nq = queue.Queue(); logging.getLogger().addHandler(logging.handlers.QueueHandler(q))\n{IMP}\nprint(repr({C}))"),
 "a36": ([], {"PYTHONWARNINGS": "error::DeprecationWarning"}, "{IMP}\nprint(repr({C}))"),
 "a40": (["sh", "-c", "umask 000; exec \"$0\" \"$@\""], {}, "{IMP}\nprint(repr({C}))"),
 "a42": (["nice", "-n", "10"], {}, "{IMP}\nprint(repr({C}))"),
 "a51": ([], {}, "import asyncio, types, sys\nm = types.ModuleType('uvloop'); exec('import asyncio\\nclass EventLoopPolicy(asyncio.DefaultEventLoopPolicy):\\n    pass', m.__dict__); sys.modules['uvloop'] = m\nasyncio.set_event_loop_policy(m.EventLoopPolicy())\n{IMP}\nasync def main():\n    print(repr({C}))\nasyncio.run(main())"),
}
def run(diff, rid):
    tid, pool = TASK[rid]
    d = tempfile.mkdtemp(prefix="rt24wit", dir="/tmp")
    shutil.copytree(f"{R}/{pool}/tasks/{tid}/repo", d + "/repo")
    subprocess.run(["patch", "-s", "-p1", "-i", diff], cwd=d + "/repo", check=True)
    k = kind_of(tid)
    imp, call = CALL[k]
    pre, env, prog = W[rid]
    prog = prog.replace("{IMP}", imp).replace("{C}", call).replace("{{", "{").replace("}}", "}")
    src = d + "/repo/src" if os.path.isdir(d + "/repo/src") else d + "/repo"
    e = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": src, **env}
    p = subprocess.run(pre + ["/usr/bin/python3", "-c", prog], env=e, capture_output=True, text=True, cwd="/tmp", timeout=120)
    shutil.rmtree(d)
    return (p.stdout.strip() or p.stderr.strip().splitlines()[-1:])
if __name__ == "__main__":
    ids = sys.argv[1:] or sorted(W)
    for rid in ids:
        tid, pool = TASK[rid]
        gold = f"{R}/{pool}/golden/{tid}.diff"
        a = run(f"{P}/{rid}.diff", rid); g = run(gold, rid)
        print(f"{rid}\t{'WRONG' if a != g else 'same'}\trow={a!r}\tgolden={g!r}")
