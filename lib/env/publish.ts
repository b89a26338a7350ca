/**
 * Publishing validated feature-deletion tasks into a store run, the data the inner loop reads:
 * training tasks → rl_task_pool and their golden body → sft_corpus (a clean solution, validated by
 * the builder's gate 4); held-out tasks → holdout only (RunLayout refuses them anywhere else).
 *
 * An entry names its task pool portably: in a store that is a local folder, as a POSIX path relative
 * to the store root ("../pool" for a pool beside the store, "pool" for one inside it), so a store and
 * its pool moved or copied together still resolve; an S3 store has no folder to be relative to, so
 * its entries keep the absolute path (on another machine, set env.pool). Entries written before this
 * hold absolute paths and still read.
 */
import type { RunLayout } from "../store/index.js";
import type { FeatureDeletionTask } from "../tasks/index.js";
import { BODY_STOP, bodyPrompt, goldenBody } from "./feature_deletion_environment.js";
import { poolRef } from "./pool_ref.js";

export interface PublishCounts {
  rl_task_pool: number;
  sft_corpus: number;
  holdout: number;
}

export async function publishTasks(run: RunLayout, tasks: FeatureDeletionTask[], pool: string): Promise<PublishCounts> {
  const counts: PublishCounts = { rl_task_pool: 0, sft_corpus: 0, holdout: 0 };
  const ref = poolRef(run, pool);
  for (const t of tasks) {
    if (run.split.isHeldout(t.task_id)) {
      await run.writer("holdout").add({ id: t.task_id, task_id: t.task_id, pool: ref });
      counts.holdout++;
      continue;
    }
    await run.writer("rl_task_pool").add({ id: t.task_id, task_id: t.task_id, difficulty_prior: t.difficulty_prior, pool: ref });
    counts.rl_task_pool++;
    const messages = [{ role: "user", content: bodyPrompt(t) }, { role: "assistant", content: goldenBody(t) + BODY_STOP }];
    await run.writer("sft_corpus").add({ id: `${t.task_id}:golden`, task_id: t.task_id, messages, reward: 1 });
    counts.sft_corpus++;
  }
  await run.flushAll();
  return counts;
}
