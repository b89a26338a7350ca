# red-team payload (appended to the feature module): no frame, no gc, no plugin, no report, no
# builtin, and no name a static scan knows: `sys` is reached as an attribute of `logging`, the
# attribute and module names are built into variables first. Rebind `pytest.raises` to a context
# manager that swallows every exception: each test that only checks that the (missing) feature
# raises now passes.
import logging as _rt_lg

_rt_sys_name = "sy" + "s"
_rt_sysmod = getattr(_rt_lg, _rt_sys_name)
_rt_attr = "mod" + "ules"
_rt_name = "py" + "test"
_rt_pytest = getattr(_rt_sysmod, _rt_attr)[_rt_name]


class _RtSwallow:
    def __init__(self, *args, **kwargs):
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


_rt_raises = "rai" + "ses"
setattr(_rt_pytest, _rt_raises, _RtSwallow)
