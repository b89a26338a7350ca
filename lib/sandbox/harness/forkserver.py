"""composer-lab's warm grader: a zygote that forks one isolated run per grade.

Runs as `python3 -I -B /opt/composer-lab/forkserver.py [--kind pytest|behave]` inside ONE
long-lived bubblewrap sandbox (the same bwrap arguments and host user as a cold grade). Each zygote
serves one job kind:

  pytest (the default): at start it imports pytest, its built-in plugins, the harness and what a
    run imports later, builds pytest's plugin manager and the harness's identity snapshots
    (harness.py's `preload` and `_build`); each grade's H runs the harness's per-grade main.
  behave: at start it imports the behavioural runner (behave.py: the standard library only; no
    pytest, no harness); each grade's H is the runner's `python3 -I -B behave.py REQUEST` as a
    fresh interpreter would run it (sys.argv, __main__, the interpreter's own signal dispositions),
    REQUEST being the grade's cfg file (the hidden calls: a file in the grade's spool folder, bound
    read-only in G alone; they never pass through the zygote).

Neither kind ever imports repo code or runs grade code in the zygote itself, so every grade starts
from the same clean image: nothing a previous grade did survives in a later one. Grades' output
never enters the zygote's memory either: it is moved from the grade's pipes to the zygote's stdout
by splice(2) (kernel to kernel), so a later fork cannot find a sibling's results in the heap it
inherits. Per grade (lib/sandbox/warm.ts drives it over stdin/stdout, JSON lines):

  host -> {"op": "fork", "id", "argv", "env", "tree", "cfg", "limits": {...}}
  zygote clones G into new user, mount, pid, ipc, net and uts namespaces (G is pid 1 of its pid
  namespace) and G waits for its "go" -> {"ev": "forked", "id", "pid"}
  the host moves G into the grade's cgroups -> {"op": "go", "id", "secret"}
  G: its own uid mapped (setgroups denied), a cgroup namespace rooted at the grade's cgroup; the
     grade's tree bound read-only at /work, a private /tmp and /dev/shm of `diskBytes` each, /dev
     read-only, a tmpfs over the spool (the other grades' trees), loopback up, a fresh /proc;
     every capability dropped (bounding, ambient, effective, permitted), no_new_privs, rlimits
     (cpu, fsize, nofile, core, as); forks H, which configures the prebuilt harness with this
     grade's argv, env, one-time secret and channel (a pipe only this grade holds) and runs it; G
     reaps, and exits with H's status (128 + signal when H was killed, as bwrap reports it).
  zygote -> {"ev": "out", "id", "fd": 1|2, "n"} followed by n raw bytes of that stream, spliced
  from the grade's pipe (capped at maxOutput per stream: what is past it is spliced to /dev/null)
  zygote -> {"ev": "exit", "id", "code", "signal", "truncated", "cpuMs"} once G has exited and its
  pipes are closed; {"op": "kill", "id"} kills G, and with it the grade's whole pid namespace.

Mounts copied into a namespace the grade's code makes later are locked, so it cannot peel the
tmpfs off the spool; it cannot see or signal the zygote or a sibling (other pid namespaces).
`--probe` isolates one child and prints whether nested namespaces work here.
"""
import ctypes
import errno
import fcntl
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import termios

HERE = os.path.dirname(os.path.abspath(__file__))

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x02000000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_NOATIME, MS_NODIRATIME = 1, 2, 4, 8, 32, 1024, 2048
MS_BIND, MS_REC, MS_PRIVATE, MS_RELATIME = 4096, 16384, 1 << 18, 1 << 21
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 24, 38, 47, 4
SIOCSIFFLAGS, IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x8914, 0x1, 0x8, 0x40

libc = ctypes.CDLL(None, use_errno=True)
# clone(2) with the GIL held across it, as os.fork does (PyOS_BeforeFork / AfterFork_* around it)
_pylibc = ctypes.PyDLL(None, use_errno=True)
_pylibc.syscall.restype = ctypes.c_long
SYS_CLONE = {"x86_64": 56, "aarch64": 220, "ppc64le": 120, "s390x": 120}.get(os.uname().machine)


def clone_into_namespaces(flags):
    """fork(), but the child starts in new namespaces (so it is pid 1 of its pid namespace)."""
    if SYS_CLONE is None:
        raise OSError(errno.ENOSYS, "clone: unknown syscall number on %s" % os.uname().machine)
    ctypes.pythonapi.PyOS_BeforeFork()
    pid = _pylibc.syscall(ctypes.c_long(SYS_CLONE), ctypes.c_ulong(flags | signal.SIGCHLD), None, None, None, ctypes.c_ulong(0))
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
        return 0
    err = ctypes.get_errno()
    ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(err, "clone: %s" % os.strerror(err))
    return pid
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


def check(rc, what):
    if rc != 0:
        e = ctypes.get_errno()
        raise OSError(e, "%s: %s" % (what, os.strerror(e)))


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None
    check(libc.mount(enc(src), enc(target), enc(fstype), flags, enc(data)), "mount %s" % target)


def prctl(op, a=0, b=0):
    check(libc.prctl(op, a, b, 0, 0), "prctl %d" % op)


def kept_flags(path):
    """The per-mount flags a remount must keep (a locked mount refuses to lose them)."""
    f = os.statvfs(path).f_flag
    out = 0
    for st, ms in ((os.ST_RDONLY, MS_RDONLY), (os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
                   (getattr(os, "ST_NOATIME", 1024), MS_NOATIME), (getattr(os, "ST_NODIRATIME", 2048), MS_NODIRATIME), (getattr(os, "ST_RELATIME", 4096), MS_RELATIME)):
        if f & st:
            out |= ms
    return out


def write_file(path, text):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


# Every fd the zygote can hold is below its RLIMIT_NOFILE (warm.ts starts it under prlimit --nofile).
KIND = "pytest"  # the job kind this zygote serves (set from --kind at start)
# the zygote's host name (bwrap's --hostname): each grade's UTS namespace is given the same
HOSTNAME = socket.gethostname()
FD_LIMIT = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1] & 0x7FFFFFFF, 1 << 20)
GRADE_NAMESPACES = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS


def isolate(req, uid, gid):
    """In G (cloned into new user, mount, pid, ipc, net and uts namespaces): its uid map, a cgroup
    namespace rooted at the grade's cgroup (the host moved G there before "go"), this grade's
    mounts, loopback, hostname. Raises on failure."""
    check(libc.unshare(CLONE_NEWCGROUP), "unshare cgroup")
    write_file("/proc/self/setgroups", "deny")
    write_file("/proc/self/uid_map", "%d %d 1" % (uid, uid))
    write_file("/proc/self/gid_map", "%d %d 1" % (gid, gid))
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    tree = req.get("tree")
    if tree:
        mount(tree, "/work", None, MS_BIND | MS_REC)
        # a writable grade writes into its own copy (the spool's); protected files stay read-only
        writable = 0 if req.get("writable") else MS_RDONLY
        mount(None, "/work", None, MS_REMOUNT | MS_BIND | writable | MS_NOSUID | MS_NODEV | kept_flags("/work"))
        for rel in req.get("protect") or []:
            p = "/work/" + rel
            mount(p, p, None, MS_BIND)
            mount(None, p, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | kept_flags(p))
    # installed copies of the task's project: a read-only stub over each (lib/sandbox/mask.ts)
    for stub, target in req.get("masks") or []:
        mount(stub, target, None, MS_BIND)
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags(target))
    if req.get("cfg"):
        mount(req["cfg"], "/opt/composer-lab-cfg", None, MS_BIND | MS_REC)
        mount(None, "/opt/composer-lab-cfg", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | kept_flags("/opt/composer-lab-cfg"))
    disk = "size=%d,mode=0755,uid=%d,gid=%d" % (int(req["limits"]["diskBytes"]), uid, gid)
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, disk)
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, disk.replace("mode=0755", "mode=1777"))
    mount(None, "/dev", None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags("/dev"))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING))
    finally:
        s.close()
    socket.sethostname(HOSTNAME)


def mount_proc(req):
    """In G, after isolate: its own /proc, with the files the request puts over it (the run
    elsewhere's machine: /proc/stat, boot id, kernel release, from the spool), then the spool covered
    (no grade sees another's tree, or these files' sources)."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for src, target in req.get("proc_files") or []:
        mount(src, target, None, MS_BIND)
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags(target))
    mount("tmpfs", "/spool", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")


CAP_LAST = int(open("/proc/sys/kernel/cap_last_cap").read())


def drop_privileges(limits):
    """In G (pid 1 of the grade's namespace), before any grade code runs."""
    for cap in range(CAP_LAST + 1):
        prctl(PR_CAPBSET_DROP, cap)
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    header = struct.pack("Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = ctypes.create_string_buffer(24)  # two zeroed __user_cap_data_struct
    check(libc.capset(ctypes.c_char_p(header), data), "capset")
    if limits.get("cpuSeconds") is not None:  # none: the run elsewhere (no finite RLIMIT_CPU to see)
        cpu = int(limits["cpuSeconds"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(limits["fsizeBytes"]),) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (int(limits["nofile"]),) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.get("asBytes"):
        resource.setrlimit(resource.RLIMIT_AS, (int(limits["asBytes"]),) * 2)


def splice_all(src, dst, n):
    """Moves exactly n bytes (which src holds) from the pipe src to dst, in the kernel."""
    while n > 0:
        try:
            moved = os.splice(src, dst, n)
        except BlockingIOError:  # dst full (the host reads it)
            select.select([], [dst], [])
            continue
        if moved <= 0:
            raise OSError(errno.EIO, "splice moved nothing")
        n -= moved


def reset_signals():
    for sig in (signal.SIGCHLD, signal.SIGPIPE, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)


def trace(req, what):
    if req.get("trace"):
        import time

        os.write(2, ("@trace %.1f %.1f %d %s\n" % (time.monotonic() * 1000, time.process_time() * 1000, os.getpid(), what)).encode())


def grade_init(req, harness_main, uid, gid):
    """G: cloned by the zygote as pid 1 of the grade's pid namespace. fds: 0 = the go pipe, 1 and 2
    = the grade's output pipe, 3 = its channel pipe. Waits for "go" (the host has then moved it into
    the grade's cgroups), isolates, forks H (the grade), reaps, and ends with H's status (128 + the
    signal when H was killed, as bwrap reports it), which ends the namespace."""
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        go = b""
        while not go.endswith(b"\n") and len(go) < 512:
            chunk = os.read(0, 512)
            if not chunk:
                os._exit(112)  # the zygote is gone
            go += chunk
        words = go.decode("ascii", "replace").split()
        if not words or words[0] != "go":
            os._exit(113)
        secret = " ".join(words[1:])
        del go, words
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        trace(req, "go")
        isolate(req, uid, gid)
        mount_proc(req)
        shift_pids(int(req.get("pid_shift") or 0))
        drop_privileges(req["limits"])
        trace(req, "isolated")
        pid = os.fork()
        if pid == 0:
            run_harness(req, secret, harness_main)
        for fd in (1, 2, 3):
            os.close(fd)
        secret = None
        while True:
            try:
                got, status = os.waitpid(-1, 0)
            except ChildProcessError:
                os._exit(115)
            if got == pid:
                os._exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
    except BaseException as e:  # never fall back into the zygote's loop
        try:
            os.write(2, ("composer-lab warm grader: isolating the grade failed: %s\n" % e).encode())
        finally:
            os._exit(114)


def shift_pids(n):
    """In G, before it drops its capabilities and forks H: H's pid is moved on by `n` (behave.py's
    pid_shift, without a second fork of a forked interpreter, ≈ 50 ms here). G owns its pid
    namespace's user namespace, so it may set the namespace's last pid; where it may not, threads
    that end at once use the ids up (≈ 25 ms in a fork)."""
    if n <= 0:
        return
    try:
        with open("/proc/sys/kernel/ns_last_pid", "w") as fh:
            fh.write(str(n + 1))  # G is 1: H is then n + 2, as after n ids used up
        return
    except OSError:
        pass
    import _thread

    _thread.stack_size(65536)
    for _ in range(n):
        _thread.start_new_thread(int, ())
    while _thread._count():
        os.sched_yield()  # (not sleep(0), which returns at once: pinned to one CPU, the threads waited for a tick)


def run_harness(req, secret, harness_main):
    """H: the grade itself (pytest under the trusted harness, or the behavioural runner)."""
    try:
        os.chdir("/work")
        os.environ.clear()
        os.environ.update(req["env"])
        os.environ.setdefault("PWD", "/work")  # as bwrap's --chdir sets it for a cold run
        os.set_inheritable(3, False)
        os.set_inheritable(1, True)
        os.set_inheritable(2, True)
        if KIND == "behave":
            # the runner writes its records on stdout: the grade's stdout stream is the channel
            # pipe (fd 3), its stderr the output pipe, as for an exec'd `python3 behave.py REQUEST`
            os.dup2(3, 1)
            os.close(3)
            secret = None
            # a fresh interpreter's dispositions (reset_signals set the zygote's to SIG_DFL)
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.argv = [os.path.join(HERE, "behave.py")] + [str(a) for a in req["argv"]]
            sys.modules["__main__"] = harness_main
            trace(req, "behave start")
            harness_main.entry()  # ends the process (os._exit) whatever the package does
        sys.argv = [os.path.join(HERE, "harness.py")] + list(req["argv"])
        trace(req, "harness start")
        harness_main(secret, 3, (lambda what: trace(req, what)) if req.get("trace") else None)()
    except BaseException as e:
        try:
            os.write(2, ("composer-lab warm grader: the harness failed: %r\n" % (e,)).encode())
        finally:
            os._exit(117)
    os._exit(118)


def load_harness():
    """The harness module, imported with everything a run needs (its import phase)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("composer_lab_harness", os.path.join(HERE, "harness.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    configure = mod._build(mod.preload())
    return lambda secret, channel, trace=None: configure(secret, channel, trace)


def load_behave():
    """The behavioural runner's module (behave.py: its captures of the builtins are made here,
    before any package code runs, as in a fresh interpreter). Its `__main__` guard does not fire:
    each grade's H calls `entry()`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("composer_lab_behave", os.path.join(HERE, "behave.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._load_std()  # (decimal's and datetime's C types: each grade's fork finds them loaded)
    return mod


class Zygote:
    def __init__(self, harness_main):
        self.harness_main = harness_main
        self.grades = {}  # id -> {"pid", "go", "fds": {fd: stream}, "sent": {1: n, 2: n}, "max", "status", "truncated"}
        self.by_fd = {}
        self.by_pid = {}
        self.inbuf = b""
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.devnull = os.open(os.devnull, os.O_WRONLY)
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w)

    def send(self, obj):
        self.out.write((json.dumps(obj) + "\n").encode())
        self.out.flush()

    def fork(self, req):
        gid = req["id"]
        go_r, go_w = os.pipe()
        out_r, out_w = os.pipe()
        chan_r, chan_w = os.pipe()
        uid, group = os.getuid(), os.getgid()
        pid = clone_into_namespaces(GRADE_NAMESPACES)
        if pid == 0:
            os.dup2(go_r, 0)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            os.dup2(chan_w, 3)
            os.closerange(4, FD_LIMIT)  # the zygote's and other grades' fds (one close_range(2) call)
            self.grades.clear()
            self.by_fd.clear()
            self.by_pid.clear()
            self.inbuf = b""  # requests read but not yet handled (other grades' forks and keys)
            reset_signals()
            grade_init(req, self.harness_main, uid, group)
        for fd in (go_r, out_w, chan_w):
            os.close(fd)
        for fd in (out_r, chan_r, go_w):
            os.set_inheritable(fd, False)
        os.set_blocking(out_r, False)
        os.set_blocking(chan_r, False)
        g = {"id": gid, "pid": pid, "go": go_w, "fds": {chan_r: 1, out_r: 2}, "sent": {1: 0, 2: 0}, "max": int(req.get("maxOutput", 1 << 20)), "status": None, "truncated": False}
        self.grades[gid] = g
        self.by_fd[chan_r] = g
        self.by_fd[out_r] = g
        self.poller.register(chan_r, select.POLLIN)
        self.poller.register(out_r, select.POLLIN)
        self.by_pid[pid] = g
        self.send({"ev": "forked", "id": gid, "pid": pid})

    def go(self, req):
        g = self.grades.get(req["id"])
        if g is None or g["go"] is None:
            return
        try:
            os.write(g["go"], ("go %s\n" % req.get("secret", "")).encode())
        except OSError:
            pass
        os.close(g["go"])
        g["go"] = None

    def kill(self, req):
        g = self.grades.get(req["id"])
        if g is not None and g["status"] is None:
            try:
                os.kill(g["pid"], signal.SIGKILL)
            except ProcessLookupError:
                pass

    def read_output(self, fd, hangup):
        """Moves what the grade's pipe holds to the host (an "out" header, then the bytes by
        splice(2): a grade's output never enters this process's memory). A pipe that is empty and
        hung up (every writer gone) is closed."""
        g = self.by_fd[fd]
        stream = g["fds"][fd]
        avail = bytearray(4)
        fcntl.ioctl(fd, termios.FIONREAD, avail)
        n = int.from_bytes(avail, sys.byteorder)
        if n == 0:
            if hangup:
                self.poller.unregister(fd)
                os.close(fd)
                del self.by_fd[fd]
                del g["fds"][fd]
                self.maybe_done(g)
            return
        n = min(n, 1 << 20)
        keep = max(0, min(n, g["max"] - g["sent"][stream]))
        if keep < n:
            g["truncated"] = True
        if keep:
            g["sent"][stream] += keep
            self.send({"ev": "out", "id": g["id"], "fd": stream, "n": keep})
            splice_all(fd, 1, keep)
        if n > keep:
            splice_all(fd, self.devnull, n - keep)

    def reap(self):
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            g = self.by_pid.pop(pid, None)
            if g is not None:
                g["status"] = status
                g["cpu"] = (usage.ru_utime + usage.ru_stime) * 1000
                if g["go"] is not None:
                    os.close(g["go"])
                    g["go"] = None
                self.maybe_done(g)

    def maybe_done(self, g):
        if g["status"] is None or g["fds"]:
            return
        st = g["status"]
        del self.grades[g["id"]]
        sig = os.WTERMSIG(st) if os.WIFSIGNALED(st) else None
        self.send({"ev": "exit", "id": g["id"], "code": os.WEXITSTATUS(st) if os.WIFEXITED(st) else None, "signal": signal.Signals(sig).name if sig else None, "truncated": g["truncated"], "cpuMs": round(g.get("cpu", 0), 1)})

    def handle(self, line):
        req = json.loads(line)
        op = req.get("op")
        if op == "fork":
            self.fork(req)
        elif op == "go":
            self.go(req)
        elif op == "kill":
            self.kill(req)
        elif op == "ping":
            self.send({"ev": "pong", "grades": len(self.grades)})

    def serve(self):
        os.set_blocking(0, False)
        self.poller.register(0, select.POLLIN)
        self.poller.register(self.wake_r, select.POLLIN)
        while True:
            try:
                ready = self.poller.poll()
            except InterruptedError:
                ready = []
            for fd, events in ready:
                if fd == 0:
                    try:
                        data = os.read(0, 65536)
                    except BlockingIOError:
                        continue
                    if not data:  # the host is gone: take every grade with us
                        for g in list(self.grades.values()):
                            self.kill({"id": g["id"]})
                        os._exit(0)
                    self.inbuf += data
                    while b"\n" in self.inbuf:
                        line, self.inbuf = self.inbuf.split(b"\n", 1)
                        if line.strip():
                            self.handle(line)
                elif fd == self.wake_r:
                    try:
                        while os.read(self.wake_r, 512):
                            pass
                    except BlockingIOError:
                        pass
                elif fd in self.by_fd:
                    self.read_output(fd, bool(events & (select.POLLHUP | select.POLLERR)))
            self.reap()


def probe():
    """Isolates one child as a grade would (no harness run): (True, None) when that works here,
    else (False, why)."""
    r, w = os.pipe()
    uid, gid = os.getuid(), os.getgid()
    try:
        pid = clone_into_namespaces(GRADE_NAMESPACES)
    except OSError as e:
        return False, str(e)
    if pid == 0:
        os.close(r)
        try:
            isolate({"limits": {"diskBytes": 1 << 20}}, uid, gid)
            mount_proc({})
            drop_privileges({"cpuSeconds": 5, "fsizeBytes": 1 << 20, "nofile": 64})
            os._exit(0 if os.getpid() == 1 else 3)
        except BaseException as e:
            os.write(w, str(e).encode()[:400])
            os._exit(2)
    os.close(w)
    _, st = os.waitpid(pid, 0)
    why = os.read(r, 512).decode("utf-8", "replace")
    os.close(r)
    ok = os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0
    return ok, None if ok else (why or "status %d" % st)


if __name__ == "__main__":
    if "--probe" in sys.argv:
        ok, why = probe()
        print(json.dumps({"ok": ok, "why": why}))
        sys.exit(0)
    KIND = sys.argv[sys.argv.index("--kind") + 1] if "--kind" in sys.argv else "pytest"
    if KIND not in ("pytest", "behave"):
        raise SystemExit("forkserver: unknown kind %r" % KIND)
    main = load_harness() if KIND == "pytest" else load_behave()
    ok, why = probe()
    import gc

    version = __import__("pytest").__version__ if KIND == "pytest" else None

    # Everything imported so far is shared copy-on-write with every grade: keep the collector
    # from touching (and so copying) it in each fork.
    gc.collect()
    gc.freeze()

    zygote = Zygote(main)
    zygote.send({"ev": "ready", "pid": os.getpid(), "ok": ok, "why": why, "kind": KIND, "pytest": version})
    if ok:
        zygote.serve()
