/** Function granularity: one function or method body (stubbed, or the definition removed). */
import { deleteInto } from "../deletion.js";
import { describeSymbols, symbolCandidates, type GranularityStrategy } from "./strategy.js";

export const functionGranularity: GranularityStrategy = {
  name: "function",
  select: (ctx, file, facts) => symbolCandidates(ctx, file, facts, "function"),
  delete: (ctx, _c, deleted) => ({ golden: deleteInto(ctx.original, ctx.broken, deleted, ctx.delete, ctx.starve) }),
  describe: (_c, deleted) => describeSymbols(deleted),
  harder: "class",
  capsSpan: true,
};
