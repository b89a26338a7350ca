/**
 * The SDPO positive / negative control (issue 27): tasks whose answer cannot be inferred from the
 * prompt, and whose environment feedback carries it (OPSD-style: the hint is the answer).
 *
 * A task is a short id (`q:xvt`) and a random answer over a small alphabet (`a:cfhb`); nothing in the
 * id predicts the answer. Reward 1 for the exact answer, else 0 (a sparse reward: from a policy that
 * does not know the answer, GRPO's groups are all 0 and carry no signal). A wrong answer's grade
 * carries feedback, its error_message:
 *   hint "answer":        `expected cfhb` — the information the student lacks;
 *   hint "uninformative": `expected dgag` — a string of the same length and form, drawn per task
 *                         independently of the answer (the negative control: same shape, no information).
 * The teacher's prompt puts the hint on the line above the task. Demonstrations are the answer;
 * mistake() is a wrong answer of the same length (hint-conditioned SFT pairs its feedback with the
 * answer: the model learns to copy the answer out of the feedback).
 */
import { z } from "zod";
import { Rng } from "../core/index.js";
import { Rubric, type EnvGrade, type Environment, type Message, type TaskSplit } from "./interface.js";

export const HintAnswerConfig = z.object({
  n_tasks: z.number().int().positive().default(64),
  /** Tasks held out (never trained on, unhinted at evaluation: nothing can solve them; a sanity floor). */
  n_holdout: z.number().int().min(0).default(8),
  answer_length: z.number().int().positive().default(4),
  alphabet: z.string().min(2).default("abcdefgh"),
  seed: z.number().int().default(0),
  /** What the feedback of a wrong answer says: the answer, or a same-length string unrelated to it. */
  hint: z.enum(["answer", "uninformative"]).default("answer"),
}).strict();
export type HintAnswerConfig = z.infer<typeof HintAnswerConfig>;

export interface HintAnswerTask {
  task_id: string;
  answer: string;
  /** The uninformative hint's string (same length and alphabet as the answer, drawn independently). */
  decoy: string;
}

const ID_ALPHABET = "qrstuvwxyz";
/** Ends a completion. */
export const HINT_ANSWER_STOP = "\n";

export class HintAnswerEnvironment implements Environment<HintAnswerTask> {
  readonly name = "hint_answer";
  readonly stop = HINT_ANSWER_STOP;
  readonly rubric = new Rubric({ funcs: [{ name: "exact", weight: 1 }] });
  readonly config: HintAnswerConfig;
  private readonly split: TaskSplit<HintAnswerTask>;

  constructor(config: z.input<typeof HintAnswerConfig> = {}) {
    this.config = HintAnswerConfig.parse(config);
    const c = this.config;
    if (c.n_tasks + c.n_holdout > ID_ALPHABET.length ** 3) throw new Error(`hint_answer: at most ${ID_ALPHABET.length ** 3} tasks`);
    // The pool does not depend on `hint`, so the two controls share tasks and answers.
    const rng = new Rng(c.seed * 7919 + 101);
    const word = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rng.next() * alphabet.length)]!).join("");
    const ids = new Set<string>();
    const tasks: HintAnswerTask[] = [];
    while (tasks.length < c.n_tasks + c.n_holdout) {
      const id = word(ID_ALPHABET, 3);
      const answer = word(c.alphabet, c.answer_length);
      let decoy = word(c.alphabet, c.answer_length);
      while (decoy === answer) decoy = word(c.alphabet, c.answer_length);
      if (ids.has(id)) continue;
      ids.add(id);
      tasks.push({ task_id: id, answer, decoy });
    }
    this.split = { train: tasks.slice(0, c.n_tasks), holdout: tasks.slice(c.n_tasks) };
  }

  splits(): TaskSplit<HintAnswerTask> {
    return this.split;
  }

  prompt(task: HintAnswerTask, hint?: string | null): Message[] {
    const q = `q:${task.task_id}\na:`;
    return [{ role: "user", content: hint ? `${hint.replace(/\s+/g, " ").trim()}\n${q}` : q }];
  }

  async grade(task: HintAnswerTask, completion: string): Promise<EnvGrade> {
    const text = completion.split(this.stop)[0]!.trim();
    const exact = text === task.answer ? 1 : 0;
    const components = { exact };
    const valid = text.length === this.config.answer_length && [...text].every((ch) => this.config.alphabet.includes(ch));
    const said = this.config.hint === "answer" ? task.answer : task.decoy;
    return {
      reward: this.rubric.score(components), components, valid, passed: exact === 1,
      error: exact ? null : { error_kind: "wrong_answer", behavior_dim: "tool_use", error_message: `expected ${said}`, erroring_action: text.slice(0, 40), state_excerpt: `q:${task.task_id}` },
    };
  }

  demonstration(task: HintAnswerTask): string {
    return task.answer + this.stop;
  }

  mistake(task: HintAnswerTask, rng: Rng): string {
    const a = this.config.alphabet;
    let w = task.answer;
    while (w === task.answer) w = Array.from({ length: this.config.answer_length }, () => a[Math.floor(rng.next() * a.length)]!).join("");
    return w + this.stop;
  }

  tag(): string | null {
    return null;
  }
}
