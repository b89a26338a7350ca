exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import asyncio
import micro_s0_000.funcs as m
print("  imported:", m.__file__)
async def handle(x):
    await asyncio.sleep(0)
    return m.add_3(x)
show("top level", m.add_3(1), 4)
loop = asyncio.new_event_loop()
show("one loop, run_until_complete per call (the home's loop), 1st", loop.run_until_complete(handle(1)), 4)
show("one loop, run_until_complete per call (the home's loop), 2nd", loop.run_until_complete(handle(2)), 5)
loop.close()
show("asyncio.run(handle(1))", asyncio.run(handle(1)), 4)
async def server():
    # an asyncio server: a serving task plus one task per request
    return await asyncio.gather(*(handle(x) for x in (1, 2, 3)))
got = asyncio.run(server())
for x, g in zip((1, 2, 3), got):
    show(f"asyncio server, concurrent request add_3({x})", g, x + 3)
async def tcp():
    async def on_conn(r, w):
        x = int((await r.readline()).decode())
        w.write(f"{m.add_3(x)}\n".encode()); await w.drain(); w.close()
    srv = await asyncio.start_server(on_conn, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"1\n"); await w.drain()
    out = int((await r.readline()).decode()); w.close(); srv.close()
    return out
show("asyncio.start_server handler, add_3(1)", asyncio.run(tcp()), 4)
