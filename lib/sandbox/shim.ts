/**
 * The agent's shell: an ALLOWLIST of commands (the seed's §3b). This is hygiene, not the security
 * boundary: the loader, `python -c`, copied binaries and scripts can all get around it. The
 * namespaces of the sandbox are the boundary; the shim removes the easy recovery tools (find,
 * strings, unzip, jar, javap, objdump, git, decompilers) and records what was refused.
 */
export const ALLOWED_COMMANDS = new Set([
  "python", "python3", "pytest", "ls", "cat", "head", "tail", "wc", "grep", "sed", "awk", "echo", "printf", "pwd",
  "diff", "sort", "uniq", "cut", "tr", "true", "false", "mkdir", "touch", "cp", "mv", "rm", "test", "[", "cd", "nl", "tee",
]);

/** Named explicitly so the refusal can say why (everything not allowed is refused anyway). */
export const DENIED_COMMANDS = new Set([
  "find", "strings", "unzip", "zipinfo", "jar", "javap", "objdump", "readelf", "xxd", "hexdump", "od", "git",
  "uncompyle6", "decompyle3", "pycdc", "pycdas", "cfr", "procyon", "fernflower", "jd-cli", "curl", "wget", "pip", "pip3",
  "env", "xargs", "sh", "bash", "dash", "zsh", "perl", "ruby", "node", "busybox", "tar", "gzip", "zcat",
]);

/** Python modules `python -m` may run. */
export const ALLOWED_PY_MODULES = new Set(["pytest", "unittest", "doctest", "py_compile"]);

/** Paths whose contents are recovery material, not source. */
export const LEAK_PATH = /(?:^|\/)(?:__pycache__|\.mypy_cache|\.pytype|\.pyre|\.ruff_cache|\.git|\.tox|\.cache)(?:\/|$)|\.(?:pyc|pyo|class|jar|war)$/;

export interface ShimVerdict {
  allowed: boolean;
  why: string | null;
  /** Every command name the line would run. */
  commands: string[];
}

/** Splits a shell line into words per simple command (quotes respected; no expansion). */
function segments(line: string): string[][] | { error: string } {
  if (/\$\(|`|<\(|>\(/.test(line)) return { error: "command substitution is not allowed" };
  const out: string[][] = [[]];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const flush = () => {
    if (inWord) out[out.length - 1]!.push(word);
    word = "";
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c) && c !== "\n") flush();
    else if (c === ";" || c === "|" || c === "&" || c === "\n" || c === "(" || c === ")") {
      flush();
      if (out[out.length - 1]!.length) out.push([]);
    } else if (c === ">" || c === "<") {
      flush(); // redirections: the target is a word of its own; fine either way
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { error: "unterminated quote" };
  flush();
  return out.filter((s) => s.length > 0);
}

/** Whether the agent may run this shell line. */
export function checkShellCommand(line: string): ShimVerdict {
  const segs = segments(line);
  if ("error" in segs) return { allowed: false, why: segs.error, commands: [] };
  const commands: string[] = [];
  for (const seg of segs) {
    const first = seg.findIndex((w) => !/^\w+=/.test(w)); // skip VAR=value prefixes
    if (first < 0) continue;
    const words = seg.slice(first);
    const name = words[0]!.split("/").pop()!;
    commands.push(name);
    if (DENIED_COMMANDS.has(name)) return { allowed: false, why: `\`${name}\` is not available in this environment`, commands };
    if (!ALLOWED_COMMANDS.has(name) && !/^python3(\.\d+)?$/.test(name)) return { allowed: false, why: `\`${name}\` is not on the allowlist`, commands };
    if (/^python/.test(name)) {
      const m = words.indexOf("-m");
      if (m >= 0 && !ALLOWED_PY_MODULES.has(words[m + 1] ?? "")) return { allowed: false, why: `python -m ${words[m + 1] ?? ""} is not allowed (allowed: ${[...ALLOWED_PY_MODULES].join(", ")})`, commands };
    }
    for (const w of words.slice(1)) if (LEAK_PATH.test(w)) return { allowed: false, why: `${w}: caches, bytecode and VCS data are off limits`, commands };
  }
  return { allowed: true, why: null, commands };
}
