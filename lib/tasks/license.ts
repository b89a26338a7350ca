/** The upstream license of a repo, carried per task; copyleft tasks are excluded from export by default. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const RULES: [RegExp, string][] = [
  [/GNU AFFERO GENERAL PUBLIC LICENSE|\bAGPL/i, "AGPL"],
  [/GNU LESSER GENERAL PUBLIC LICENSE|\bLGPL/i, "LGPL"],
  [/GNU GENERAL PUBLIC LICENSE|\bGPL-?[23]?\b/i, "GPL"],
  [/Mozilla Public License|\bMPL/i, "MPL-2.0"],
  [/Apache License|Apache-2\.0/i, "Apache-2.0"],
  [/\bMIT License\b|Permission is hereby granted, free of charge|\bMIT\b/, "MIT"],
  [/BSD|Redistribution and use in source and binary forms/i, "BSD"],
  [/\bISC\b/, "ISC"],
  [/Python Software Foundation|\bPSF\b/i, "PSF"],
];

export const COPYLEFT = new Set(["GPL", "LGPL", "AGPL", "MPL-2.0"]);
export const isCopyleft = (license: string): boolean => COPYLEFT.has(license);

/** Reads LICENSE/COPYING files, then pyproject/setup metadata; "unknown" when nothing says. */
export function detectLicense(repo: string): string {
  const files = existsSync(repo) ? readdirSync(repo).filter((f) => /^(LICEN[CS]E|COPYING)/i.test(f)) : [];
  const meta = ["pyproject.toml", "setup.cfg", "setup.py"].filter((f) => existsSync(join(repo, f)));
  for (const f of [...files, ...meta]) {
    const text = readFileSync(join(repo, f), "utf8").slice(0, 20_000);
    const scoped = meta.includes(f) ? (text.match(/licen[cs]e\s*[=:][^\n]*/i)?.[0] ?? "") + (text.match(/License :: [^\n"']*/g) ?? []).join(" ") : text;
    for (const [re, name] of RULES) if (re.test(scoped)) return name;
  }
  return "unknown";
}
