import asyncio, micro_s0_000.funcs as funcs
from micro_s0_000.funcs import add_3
print("  funcs.__file__ =", funcs.__file__)
print("  top level: add_3(1) =", add_3(1), "(golden 4)")
async def handler(x): return add_3(x)
print("  asyncio.run(handler(1)) per call (the run at home's loop):", [asyncio.run(handler(1)) for _ in range(3)], "(golden 4 each)")
async def server():
    return [await handler(1) for _ in range(4)]   # one loop serving several requests (aiohttp/FastAPI)
print("  one running loop, 4 requests:", asyncio.run(server()), "(golden [4, 4, 4, 4])")
