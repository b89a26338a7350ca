/**
 * A module's bytecode, compiled once per interpreter and source: a cold run that imports a module
 * the grader places (the run at home's runner) reads its `__pycache__` entry as a deployed
 * module's import does, instead of compiling it again at every run (behave.py: 10–40 ms of a cold
 * run's CPU, two cold runs a passing grade; docs/performance.md).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

/** What the interpreter made: its cache tag (`cpython-311`), the source's mtime it recorded, the .pyc. */
export interface Bytecode {
  tag: string;
  mtime: number;
  pyc: Buffer;
}

const Compiled = z.object({ tag: z.string().regex(/^[a-z0-9_-]{1,40}$/), pyc: z.string() });

// The interpreter's own importlib writes the header (magic, flags, mtime, size): a timestamp .pyc,
// what an import of a writable folder leaves (not a hash-checked one, which is a distribution's choice).
const COMPILE = `import sys, json, base64, importlib._bootstrap_external as be
src = sys.stdin.buffer.read()
code = compile(src, "<runner>", "exec", dont_inherit=True)
pyc = be._code_to_timestamp_pyc(code, int(sys.argv[1]), len(src))
print(json.dumps({"tag": sys.implementation.cache_tag, "pyc": base64.b64encode(bytes(pyc)).decode()}))`;

const cache = new Map<string, Promise<Bytecode | null>>();

/** `source`'s bytecode for `python` with `mtime` (seconds) in its header, or null where it cannot
 *  be made (the run then compiles the module as before). */
export function moduleBytecode(python: string, source: string, mtime: number): Promise<Bytecode | null> {
  const key = `${python}\0${mtime}\0${createHash("sha256").update(source).digest("hex")}`;
  let p = cache.get(key);
  if (!p) {
    p = new Promise<Bytecode | null>((res) => {
      const child = execFile(python, ["-I", "-S", "-c", COMPILE, String(mtime)], { encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, out) => {
        if (err) return res(null);
        try {
          const c = Compiled.parse(JSON.parse(out));
          res({ tag: c.tag, mtime, pyc: Buffer.from(c.pyc, "base64") });
        } catch {
          res(null);
        }
      });
      child.stdin?.end(source);
    });
    cache.set(key, p);
  }
  return p;
}

/** Writes `name`.py into `dir` with its bytecode beside it in `__pycache__` (readable by the
 *  sandbox's user), the source's mtime the one the bytecode records. */
export function placeModule(dir: string, name: string, source: string, bc: Bytecode | null): void {
  const file = join(dir, `${name}.py`);
  writeFileSync(file, source);
  if (!bc || Buffer.byteLength(source) !== bc.pyc.readUInt32LE(12)) return;
  utimesSync(file, bc.mtime, bc.mtime);
  const cacheDir = join(dir, "__pycache__");
  mkdirSync(cacheDir, { recursive: true });
  chmodSync(cacheDir, 0o755);
  writeFileSync(join(cacheDir, `${name}.${bc.tag}.pyc`), bc.pyc, { mode: 0o644 });
}
