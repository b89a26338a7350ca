exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import micro_s0_000.funcs as m
print("  imported:", m.__file__)
H = "import asyncio, micro_s0_000.funcs as m\nasync def handle(x):\n    return m.add_3(x)\n"
RUC = H + "loop = asyncio.new_event_loop(); print(repr(loop.run_until_complete(handle(1))) + '|4')"
RUN = H + "print(repr(asyncio.run(handle(1))) + '|4')"
RUND = H + "print(repr(asyncio.run(handle(1), debug=True)) + '|4')"
sub("new_event_loop + run_until_complete (the home's loop)", RUC)
sub("asyncio.run(handle(1))", RUN)
sub("asyncio.run(handle(1), debug=True) (deployment)", RUND)
sub("PYTHONASYNCIODEBUG=1 (deployment: a Dockerfile/dev ENV)", RUN, env={"PYTHONASYNCIODEBUG": "1"})
sub("python3 -X dev (deployment: development mode)", RUN, flags=["-X", "dev"])
