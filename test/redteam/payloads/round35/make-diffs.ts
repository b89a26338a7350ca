import { readFileSync, writeFileSync } from "node:fs";
import { microCompletion } from "../../../support/micro-body.js";
const rows: [string, string][] = [["w01","total_3"],["c02","total_3"],["c03","scaled_3"],["c04","total_3"],["c05","total_3"],["c06","total_3"],["c07","total_3"],["w10","total_3"],["h06","total_3"],["c08","total_3"],["w05s","scaled_3"],["w11","total_3"],["w11b","total_3"],["w12","head_1"],["w07s","scaled_3"],["c09","head_1"],["w07h","head_1"],["h07","total_3"],["w02","total_3"],["w03","scaled_3"],["w04","total_3"],["w04s","total_3"],["w05","total_3"],["c01","total_3"],["w06","scaled_3"],["w07","head_1"],["w08","total_3"],["w09","scaled_3"],["h01","total_3"],["h02","scaled_3"],["h03","total_3"],["h04","head_1"],["h05","scaled_3"],["h0t","total_3"],["h0s","scaled_3"],["h0h","head_1"]];
for (const [id, name] of rows) {
  const text = readFileSync(`test/redteam/payloads/round35/src/${id}.py`, "utf8").split("\n");
  const at = text.findIndex((l) => l.trim() === "### body");
  const body = text.slice(at + 1).filter((l, i, a) => i < a.length - 1 || l.trim());
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  const { diff } = microCompletion(name, text.slice(0, at), body.map((l) => l.slice(indent)));
  writeFileSync(`test/redteam/payloads/round35/${id}.diff`, diff);
  console.log(id, name, diff.length);
}
