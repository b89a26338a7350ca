/**
 * README.md and docs/ stay true: every relative link resolves, and every `composer-lab …` command
 * they quote names a real command (and subcommand) whose options include the ones quoted.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../lib/cli/main.js";
import { ROOT } from "./helpers.js";

const DOCS = [join(ROOT, "README.md"), ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => join(ROOT, "docs", f))];

/** Markdown links [text](target) outside code, relative targets only. */
function links(md: string): string[] {
  const prose = md.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(?:[a-z]+:|#)/i.test(t));
}

/** Every `composer-lab …` invocation quoted in code (spans and blocks), as words. */
function commands(md: string): string[][] {
  const code = [...md.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((m) => m[0]);
  const out: string[][] = [];
  for (const c of code) {
    for (const m of c.matchAll(/(?:^|[\s`(|;&$])(?:npx )?composer-lab((?: +[^\s`|;&)]+)*)/gm)) {
      const words = m[1]!.trim().split(/ +/).filter(Boolean);
      if (words.length) out.push(words);
    }
  }
  return out;
}

describe("README and docs", () => {
  it("every relative link resolves", () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const target of links(readFileSync(doc, "utf8"))) {
        const path = resolve(dirname(doc), decodeURIComponent(target.split("#")[0]!));
        if (!existsSync(path)) broken.push(`${doc.slice(ROOT.length + 1)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  /** Problems with the quoted commands of one document, and how many were checked. */
  async function checkCommands(md: string, name: string): Promise<{ problems: string[]; checked: number }> {
    const program = await buildProgram();
    const find = (cmd: Command, n: string) => cmd.commands.find((c) => c.name() === n || c.aliases().includes(n));
    const problems: string[] = [];
    let checked = 0;
    for (const words of commands(md)) {
      const where = `${name}: composer-lab ${words.join(" ")}`;
      if (/^-/.test(words[0]!)) continue; // composer-lab --help / --version
      let cmd = find(program, words[0]!);
      if (!cmd) {
        problems.push(`${where}: no command "${words[0]}"`);
        continue;
      }
      let i = 1;
      while (cmd.commands.length && i < words.length && /^[a-z][\w-]*$/.test(words[i]!)) {
        const sub = find(cmd, words[i]!);
        if (!sub) break;
        cmd = sub;
        i++;
      }
      if (cmd.commands.length && i === 1 && words.length > 1 && /^[a-z][\w-]*$/.test(words[1]!)) {
        problems.push(`${where}: "${words[0]}" has no subcommand "${words[1]}"`);
        continue;
      }
      const known = new Set(["--help", "-h", "--json", ...cmd.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x))]);
      for (const w of words.slice(i)) {
        const flag = /^(--?[a-zA-Z][\w-]*)/.exec(w)?.[1];
        if (flag && !known.has(flag) && !known.has(flag.replace(/^--no-/, "--"))) problems.push(`${where}: ${cmd.name()} has no option ${flag}`);
      }
      checked++;
    }
    return { problems, checked };
  }

  it("the command check can disagree (a control)", async () => {
    const bad = "Run `composer-lab traces summarise DIR` or `composer-lab traces summarize DIR --formatt x` or `composer-lab nosuch`; `composer-lab traces view F --out x.html` is fine.";
    const r = await checkCommands(bad, "control");
    expect(r.problems).toHaveLength(3);
    expect(r.checked).toBe(2);
  });

  it("every quoted composer-lab command exists, with the options it is quoted with", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const doc of DOCS) {
      const r = await checkCommands(readFileSync(doc, "utf8"), doc.slice(ROOT.length + 1));
      problems.push(...r.problems);
      checked += r.checked;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
