exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import micro_s0_000.funcs as m
print("  imported:", m.__file__)
C = "import micro_s0_000.funcs as m; print(repr(m.add_3(1)) + '|' + repr(1 + 3))"
sub("plain python3 (graded run, run at home)", C)
sub("PYTHONOPTIMIZE=1 (the run elsewhere)", C, env={"PYTHONOPTIMIZE": "1"})
sub("python3 -O", C, flags=["-O"])
sub("python3 -OO (deployment: docstrings stripped)", C, flags=["-OO"])
sub("PYTHONOPTIMIZE=2 (deployment: a Dockerfile ENV)", C, env={"PYTHONOPTIMIZE": "2"})
