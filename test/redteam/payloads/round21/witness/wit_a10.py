from common import *
import markupsafe._native as n; print("  module imported:", n.__file__)
PRE = ('import markupsafe._native as n, asyncio; print("FILE", n.__file__)\n'
       'async def handle(v): await asyncio.sleep(0); return n.soft_str(v)\n')
sub("top level: soft_str(404)", PRE + "print(repr(n.soft_str(404)) + '|' + repr('404'))", env=GRADERLIKE)
sub("asyncio.run(handle(404))", PRE + "print(repr(asyncio.run(handle(404))) + '|' + repr('404'))", env=GRADERLIKE)
sub("loop: gather(handle(404), sleep(0)) (two tasks)", PRE +
    "async def main(): return (await asyncio.gather(handle(404), asyncio.sleep(0)))[0]\nprint(repr(asyncio.run(main())) + '|' + repr('404'))", env=GRADERLIKE)
sub("server: 3 concurrent requests (main + 3 request tasks)", PRE +
    "async def main(): return (await asyncio.gather(handle(404), handle(200), handle(500)))[0]\nprint(repr(asyncio.run(main())) + '|' + repr('404'))", env=GRADERLIKE)
