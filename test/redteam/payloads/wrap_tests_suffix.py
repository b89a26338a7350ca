

# red-team: every test becomes a no-op wrapper (functools.wraps keeps fixtures and parametrize ids).
import functools as _rt_ft


def _rt_noop(fn):
    @_rt_ft.wraps(fn)
    def wrapper(*args, **kwargs):
        return None

    return wrapper


for _rt_name, _rt_val in list(globals().items()):
    if _rt_name.startswith("test") and callable(_rt_val):
        globals()[_rt_name] = _rt_noop(_rt_val)
