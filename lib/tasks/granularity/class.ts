/** Class granularity: a whole class body (its methods with it). */
import { deleteInto } from "../deletion.js";
import { describeSymbols, symbolCandidates, type GranularityStrategy } from "./strategy.js";

export const classGranularity: GranularityStrategy = {
  name: "class",
  select: (ctx, file, facts) => symbolCandidates(ctx, file, facts, "class"),
  delete: (ctx, _c, deleted) => ({ golden: deleteInto(ctx.original, ctx.broken, deleted, ctx.delete, ctx.starve) }),
  describe: (_c, deleted) => describeSymbols(deleted),
  harder: "file",
  capsSpan: true,
};
