// one grade, with the behaviour check's first differences in full (JSON)
import { readFileSync } from "node:fs";
import { gradeCompletion } from "../../../../lib/env/index.js";
import { BwrapSandbox } from "../../../../lib/sandbox/index.js";
import { loadTask } from "../../../../lib/tasks/index.js";
const [pool, id, diffPath] = process.argv.slice(2);
const g: any = await gradeCompletion(loadTask(pool!, id!), readFileSync(diffPath!, "utf8"), new BwrapSandbox("bwrap", { warm: true }));
console.log("reward", g.reward, JSON.stringify(g.checks?.behaviour, null, 1).slice(0, 6000));
process.exit(0);
