import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { microCompletion } from "../../../support/micro-body.js";
// [id, function]; src/ID.py = header lines, "### body", the body; src/ID.files (optional) = new files,
// each "### file PATH" then its text, appended to the diff as files added
const rows: [string, string][] = [
  ["c01","scaled_3"],["w01","scaled_3"],["w01b","scaled_3"],["w02","scaled_3"],["w02b","scaled_3"],["w03","scaled_3"],["w03i","scaled_3"],
  ["w03f","scaled_3"],["c03s","scaled_3"],["w04","scaled_3"],["w04b","scaled_3"],["w05","head_1"],["w05s","scaled_3"],["w06","scaled_3"],["w06b","scaled_3"],
  ["w07","scaled_3"],["w10","scaled_3"],["w10b","scaled_3"],
  ["h01","head_1"],["h02","total_3"],["h03","scaled_3"],["h04","head_1"],["h05","scaled_3"],["h06","total_3"],["h07","above_3"],["h08","total_3"],
  ["h0s","scaled_3"],["h0h","head_1"],
];
const D = "test/redteam/payloads/round37";
for (const [id, name] of rows) {
  const text = readFileSync(`${D}/src/${id}.py`, "utf8").split("\n");
  const at = text.findIndex((l) => l.trim() === "### body");
  const body = text.slice(at + 1).filter((l, i, a) => i < a.length - 1 || l.trim());
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  let { diff } = microCompletion(name, text.slice(0, at), body.map((l) => l.slice(indent)));
  if (existsSync(`${D}/src/${id}.files`)) {
    const parts = readFileSync(`${D}/src/${id}.files`, "utf8").split(/^### file (.+)\n/m).slice(1);
    for (let i = 0; i < parts.length; i += 2) {
      const lines = parts[i + 1]!.replace(/\n$/, "").split("\n");
      if (!diff.endsWith("\n")) diff += "\n";
      diff += `--- /dev/null\n+++ b/${parts[i]}\n@@ -0,0 +1,${lines.length} @@\n` + lines.map((l) => "+" + l).join("\n") + "\n";
    }
  }
  writeFileSync(`${D}/${id}.diff`, diff);
  console.log(id, name, diff.length);
}
