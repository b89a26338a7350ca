// The red-team corpus's slices (test/redteam/suite.ts redteamSlice, docs/grader.md "The red-team
// corpus in the suite"): three commits in a row grade every row, each wrong row of an older round in
// exactly one slice, each honest row of an older round in all but one, every row of the two newest
// rounds in all of them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";
import { inSlice, inSliceKey, parseSlice, REDTEAM_SLICES, redteamSlice, type RedteamRow } from "./redteam/suite.js";

async function tables(): Promise<{ round: string; rows: readonly RedteamRow[] }[]> {
  const out = [];
  for (const f of readdirSync(join(ROOT, "test", "redteam")).filter((x) => /^round\d+\.ts$/.test(x) && x !== "round2.ts")) {
    const mod = await import(`./redteam/${f}`);
    out.push({ round: /\d+/.exec(f)![0], rows: mod[Object.keys(mod).find((k) => k.endsWith("_ROWS"))!] as RedteamRow[] });
  }
  return out;
}

describe("the red-team corpus's slices", () => {
  it("every row is graded by one of the slices; a wrong row of an older round by exactly one, an honest one by all but one; the two newest rounds by all", async () => {
    const all = await tables();
    const rounds = all.map((t) => Number(t.round)).sort((a, b) => b - a);
    const newest = rounds.slice(0, 2);
    let olderWrong = 0;
    let olderHonest = 0;
    const perSlice = Array(REDTEAM_SLICES).fill(0);
    const perSliceHonest = Array(REDTEAM_SLICES).fill(0);
    for (const { round, rows } of all) {
      for (const r of rows) {
        const hits = Array.from({ length: REDTEAM_SLICES }, (_, k) => inSlice(round, r, { all: false, k, n: REDTEAM_SLICES, newest }));
        if (newest.includes(Number(round))) expect(hits.every(Boolean), `${round}:${r.id}`).toBe(true);
        else if (r.kind === "honest") {
          expect(hits.filter(Boolean), `${round}:${r.id}`).toHaveLength(REDTEAM_SLICES - 1);
          olderHonest++;
          perSliceHonest[hits.indexOf(false)]++;
        } else {
          expect(hits.filter(Boolean), `${round}:${r.id}`).toHaveLength(1);
          olderWrong++;
          perSlice[hits.indexOf(true)]++;
        }
      }
    }
    // (the hash spreads them: no slice holds under a fifth of them)
    expect(olderWrong).toBeGreaterThan(300);
    for (const n of perSlice) expect(n).toBeGreaterThan(olderWrong / 5);
    expect(olderHonest).toBeGreaterThan(200);
    for (const n of perSliceHonest) expect(n).toBeGreaterThan(olderHonest / 5);
    // (one slice of one: every row)
    for (const { round, rows } of all) for (const r of rows) expect(inSlice(round, r, { all: false, k: 0, n: 1, newest })).toBe(true);
  });

  it("`all` grades every key; a slice K of N only its own; a bad COMPOSER_LAB_REDTEAM is an error that says what it wants", () => {
    const keys = Array.from({ length: 300 }, (_, i) => `key-${i}`);
    expect(keys.every((k) => inSliceKey(k, { all: true, k: 0, n: 1, newest: [] }))).toBe(true);
    const counts = [0, 1, 2].map((k) => keys.filter((x) => inSliceKey(x, { all: false, k, n: 3, newest: [] })).length);
    expect(counts.reduce((a, b) => a + b)).toBe(keys.length);
    expect(parseSlice("all", "", [29])).toMatchObject({ all: true });
    expect(parseSlice("2/5", "", [29])).toMatchObject({ all: false, k: 2, n: 5 });
    expect(parseSlice("", "d5e8e11aaaa", [29])).toMatchObject({ all: false, k: 0xd5e8e11a % REDTEAM_SLICES, n: REDTEAM_SLICES });
    expect(parseSlice("", "", [29])).toMatchObject({ k: 0 }); // (no git: slice 0)
    expect(() => parseSlice("half", "", [])).toThrow(/COMPOSER_LAB_REDTEAM=half: expected "all" or "K\/N"/);
    expect(() => parseSlice("3/3", "", [])).toThrow(/K must be below N/);
    // this run's own slice: the env's, or the commit's
    const s = redteamSlice();
    expect(s.all || (s.k >= 0 && s.k < s.n)).toBe(true);
  });
});
