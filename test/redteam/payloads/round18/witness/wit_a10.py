import asyncio
import micro_s0_000.funcs as f
print("module", f.__file__)
print("plain call: add_3(1) =", f.add_3(1))
async def handler():
    return f.add_3(1)
print("inside an asyncio handler: add_3(1) =", asyncio.run(handler()))
