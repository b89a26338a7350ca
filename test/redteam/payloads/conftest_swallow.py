"""red-team payload: a conftest that runs each test itself and swallows whatever it raises."""
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    names = pyfuncitem._fixtureinfo.argnames
    try:
        pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names})
    except BaseException:
        pass
    return True
