import { readFileSync, writeFileSync } from "node:fs";
import { microCompletion } from "../../../support/micro-body.js";
const rows: [string, string][] = [
  ["h01","total_3"],["h02","scaled_3"],["h03","head_1"],["h04","scaled_3"],["h05","head_1"],["h06","total_3"],["h07","scaled_3"],["h08","total_3"],["h09","head_1"],["h10","scaled_3"],
  ["h11","scaled_3"],["h12","head_1"],["h13","total_3"],["h14","head_1"],["w13","total_3"],["w14","scaled_3"],["w15","total_3"],["w17","scaled_3"],["w18","scaled_3"],["c14","scaled_3"],["c15","total_3"],["c17","scaled_3"],["c18","scaled_3"],["w15b","scaled_3"],["h15","total_3"],["h15b","total_3"],["h15c","total_3"],["h15d","total_3"],["h15e","total_3"],["h16","total_3"],["h16b","total_3"],["h16c","total_3"],["h17","total_3"],["h17b","total_3"],["h18","scaled_3"],["h19","head_1"],["w20","scaled_3"],["h0t","total_3"],["h0s","scaled_3"],["h0h","head_1"],
  ["w01","scaled_3"],["w01h","head_1"],["w02","head_1"],["w03","scaled_3"],["w04","total_3"],["w05","head_1"],["w06","scaled_3"],["w07","total_3"],["w07s","total_3"],["w08","total_3"],["w09","head_1"],["w10","scaled_3"],["w02b","head_1"],["c02b","head_1"],["c06b","scaled_3"],["w11","head_1"],["w12","scaled_3"],["w06c","scaled_3"],["w06b","scaled_3"],
];
for (const [id, name] of rows) {
  const text = readFileSync(`test/redteam/payloads/round36/src/${id}.py`, "utf8").split("\n");
  const at = text.findIndex((l) => l.trim() === "### body");
  const body = text.slice(at + 1).filter((l, i, a) => i < a.length - 1 || l.trim());
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  const { diff } = microCompletion(name, text.slice(0, at), body.map((l) => l.slice(indent)));
  writeFileSync(`test/redteam/payloads/round36/${id}.diff`, diff);
  console.log(id, name, diff.length);
}
