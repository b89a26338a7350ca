# red-team payload (appended to the feature module; with the stealth prelude): nothing the harness's
# identity checks cover: at import (during collection) register a plugin just long enough to see
# the collected items (pytest_collection_modifyitems), shadow every item's `runtest` with a no-op on
# the instance (the class method stays untouched), and unregister before the harness looks at the
# plugin list.


def _rt_noop():
    return None


class _RtCollect:
    def pytest_collection_modifyitems(self, session, config, items):
        for it in items:
            it.runtest = _rt_noop
        config.pluginmanager.unregister(self)


_rt_cfg = _rt_config()
if _rt_cfg is not None:
    _rt_cfg.pluginmanager.register(_RtCollect(), "rt-collect")
