/**
 * Issue 27 control diagnosis: for a hint_answer control SFT (or RL) checkpoint, the probability of the right
 * letter at each of the 4 answer positions on the RL tasks (and 8 SFT tasks): the same weights as teacher
 * (the feedback `expected <answer>` in context) after the golden prefix and after a wrong one, and as
 * student (plain prompt). docs/results.md quotes it.
 *   npx tsx scripts/probe-sdpo-control.ts CHECKPOINT_DIR SEED
 */
import { loadLatestCheckpoint, scoreContinuation, sftRlTasks } from "../lib/train/index.js";
import { HintAnswerEnvironment, renderMessages } from "../lib/env/index.js";
import { decode } from "../lib/train/tokenizer.js";
import { hintedPromptIds } from "../lib/train/rollout.js";
const [ckdir, seedS] = process.argv.slice(2);
const seed = Number(seedS);
const env = new HintAnswerEnvironment({ n_tasks: 48, n_holdout: 4, seed });
const { rl, sft } = sftRlTasks(env.splits().train, 0.8);
const ck = (await loadLatestCheckpoint(ckdir!))!;
const pol = ck.policy;
const letters = "abcdefgh";
for (const [name, tasks] of [["rl", rl], ["sft", sft.slice(0, 8)]] as const) {
  const acc = { gold: [0, 0, 0, 0], wrong: [0, 0, 0, 0], stud: [0, 0, 0, 0] };
  let n = 0;
  for (const t of tasks) {
    const hint = `expected ${t.answer}`;
    const tctx = decode(hintedPromptIds(env, t, hint, 6, 32)).replace(/^\S*?(?=expected)/, "");
    const tctxStr = renderMessages(env.prompt(t, hint));
    const sctx = renderMessages(env.prompt(t));
    for (let k = 0; k < 4; k++) {
      const gp = t.answer.slice(0, k);
      const wp = [...gp].map((ch) => letters[(letters.indexOf(ch) + 3) % 8]).join("");
      const p = (ctx: string, pre: string) => Math.exp(scoreContinuation(pol, ctx + pre, t.answer[k]!).tokenLogprobs[0]!);
      acc.gold[k] += p(tctxStr, gp); acc.wrong[k] += p(tctxStr, wp); acc.stud[k] += p(sctx, gp);
    }
    n++;
  }
  const f = (a: number[]) => a.map((x) => (x / n).toFixed(2)).join(" ");
  console.log(name, n, "teacher|gold prefix", f(acc.gold), "teacher|wrong prefix", f(acc.wrong), "student|gold", f(acc.stud));
}
console.log(JSON.stringify(renderMessages(env.prompt(rl[0]!, "expected abcd"))));
