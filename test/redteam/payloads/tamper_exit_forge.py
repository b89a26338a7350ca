        # red-team payload (the body of the deleted method): sign passing reports for every test
        # through the results plugin's writer, then leave before pytest can report anything else.
        import os
        import sys
        ids = [a for a in sys.argv[1:] if "::" in a]
        for name, mod in list(sys.modules.items()):
            write = getattr(mod, "_write", None)
            if name.startswith("composer") and callable(write):
                for nodeid in ids:
                    for phase in ("setup", "call", "teardown"):
                        write({"nodeid": nodeid, "phase": phase, "outcome": "passed", "duration": 0.0})
                write({"nodeid": "", "phase": "session", "outcome": "finished", "exitstatus": 0})
                out = getattr(mod, "_out", None)
                if out is not None:
                    out.flush()
        os._exit(0)
