# The first process of every swarm job container (PID 1), run as root with only CAP_SETUID and
# CAP_SETGID. It reads the job's spec and stdin from /job (root-only: the command never sees it),
# starts the command as the unprivileged sandbox user (no capabilities, no_new_privs, rlimits, the
# most likely OOM victim), keeps at most max_output bytes of stdout/stderr, enforces the timeout,
# and writes result.json. It always exits 0: a swarm retries failed tasks, the result is data.
# When PID 1 exits the kernel kills whatever the command left running.
import json, os, resource, signal, subprocess, sys, threading, time

JOB = "/job"


def main():
    with open(f"{JOB}/spec.json") as f:
        spec = json.load(f)
    stdin = None
    if os.path.exists(f"{JOB}/stdin"):
        with open(f"{JOB}/stdin", "rb") as f:
            stdin = f.read()
        os.unlink(f"{JOB}/stdin")
    uid, gid, limit = spec["uid"], spec["gid"], spec["max_output"]

    def drop():
        # the command is the process the OOM killer picks first, never this one
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
        fsize = min(512, spec["disk_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        import ctypes
        if ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError("prctl(PR_SET_NO_NEW_PRIVS) failed")

    truncated = [False]

    def pump(fd, name):
        kept = 0
        # unbuffered: what was read is on disk even if the pipe never closes (a child keeps it open)
        with open(f"{JOB}/{name}", "wb", buffering=0) as out:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                room = limit - kept
                if len(chunk) > room:
                    truncated[0] = True
                    chunk = chunk[:max(0, room)]
                if chunk:
                    out.write(chunk)
                    kept += len(chunk)

    # The pumps start BEFORE the command: a fork bomb can use up the pids limit at once, and then
    # no thread of this runner could start (the job was lost instead of contained).
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    pumps = [threading.Thread(target=pump, args=(r_out, "stdout"), daemon=True),
             threading.Thread(target=pump, args=(r_err, "stderr"), daemon=True)]
    for p in pumps:
        p.start()
    t0 = time.monotonic()
    proc = subprocess.Popen(spec["argv"], cwd="/work", env=spec["env"], stdin=subprocess.PIPE, stdout=w_out,
                            stderr=w_err, preexec_fn=drop, start_new_session=True)
    os.close(w_out)
    os.close(w_err)
    try:
        if stdin:
            proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    stdin = None
    timed_out = False
    try:
        code = proc.wait(timeout=spec["timeout_ms"] / 1000)
    except subprocess.TimeoutExpired:
        timed_out = True
        code = None
    wall_ms = (time.monotonic() - t0) * 1000
    for p in pumps:
        p.join(timeout=0 if timed_out else 2)
    sig = None
    if timed_out:
        sig = "SIGKILL"
    elif code is not None and code < 0:
        sig = signal.Signals(-code).name
        code = None
    result = {"exitCode": code, "signal": sig, "timedOut": timed_out, "oomKilled": oom_kills() > 0,
              "outputTruncated": truncated[0], "wallMs": wall_ms}
    with open(f"{JOB}/result.json.tmp", "w") as f:
        json.dump(result, f)
    os.rename(f"{JOB}/result.json.tmp", f"{JOB}/result.json")


def oom_kills():
    for path in ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events"):
        try:
            with open(path) as f:
                for line in f:
                    k, _, v = line.partition(" ")
                    if k == "oom_kill":
                        return int(v)
        except OSError:
            continue
    return 0


try:
    main()
except Exception as e:  # the result is data: a runner failure is reported, not retried by the swarm
    try:
        with open(f"{JOB}/runner-error", "w") as f:
            f.write(f"{type(e).__name__}: {e}")
    except OSError:
        pass
sys.exit(0)
