exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import micro_s0_000.funcs as m
print("  imported:", m.__file__)
C = "import micro_s0_000.funcs as m; print(repr(m.add_3(1)) + '|' + repr(1 + 3))"
sub("random hash seed (every grader run)", C)
sub("PYTHONHASHSEED=12345", C, env={"PYTHONHASHSEED": "12345"})
sub("PYTHONHASHSEED=0 (deployment: reproducible builds, Spark)", C, env={"PYTHONHASHSEED": "0"})
