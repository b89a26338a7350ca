// Grades one micro body: npx tsx scratch/rt30/grade-body.ts FUNC BODY.py [--null KEY=VALUE]
// BODY.py: module-level lines (the header), a line "### body", then the function's body lines (indented 4).
import { readFileSync } from "node:fs";
import { gradeCompletion } from "../../../../lib/env/index.js";
import { BwrapSandbox } from "../../../../lib/sandbox/index.js";
import { microCompletion } from "../../../support/micro-body.js";
const [name, file, flag, ...kvs] = process.argv.slice(2);
const text = readFileSync(file!, "utf8").split("\n");
const at = text.findIndex((l) => l.trim() === "### body");
if (at < 0) throw new Error(`${file}: no "### body" line`);
const body = text.slice(at + 1).filter((l, i, a) => i < a.length - 1 || l.trim());
// (the body's common indentation removed: spliceStub indents it under the def)
const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
const { t, diff } = microCompletion(name!, text.slice(0, at), body.map((l) => l.slice(indent)));
const behaviour = flag === "--null" && kvs.length ? Object.fromEntries(kvs.map((kv) => { const [k, v] = kv.split("="); return [k!, v === "true" ? true : v === "false" ? false : Number(v)]; })) : undefined;
const g: any = await gradeCompletion(t, diff, new BwrapSandbox("bwrap", { warm: true }), behaviour ? { limits: { behaviour } } : undefined);
console.log(JSON.stringify({ reward: g.reward, flags: g.flags.map((f: any) => f.kind), why: (g.checks?.behaviour?.differences ?? []).slice(0, 2).map((d: any) => d.why.slice(0, 300)) }));
if (process.env.RT_MORE) { const b: any = g.checks?.behaviour ?? {}; console.error(JSON.stringify({ history: b.elsewhere?.history, latent: b.latent ? { ...b.latent, jump: undefined } : undefined, flagd: g.flags.map((f: any) => (f.detail ?? "").slice(0, 400)) })); }
process.exit(0);
