/** The agent's actions (the env's step() input), as a zod schema: the type at the boundary. */
import { z } from "zod";

export const Action = z.discriminatedUnion("type", [
  z.object({ type: z.literal("read_file"), path: z.string() }),
  z.object({ type: z.literal("write_file"), path: z.string(), content: z.string() }),
  z.object({ type: z.literal("edit"), path: z.string(), search: z.string().min(1), replace: z.string() }),
  z.object({ type: z.literal("list_dir"), path: z.string().default(".") }),
  z.object({ type: z.literal("run_tests"), tests: z.array(z.string()).optional() }),
  z.object({ type: z.literal("shell"), command: z.string() }),
  z.object({ type: z.literal("submit") }),
]);
export type Action = z.infer<typeof Action>;

export const TrajectoryStep = z.object({
  turn: z.number().int(),
  action: Action,
  ok: z.boolean(),
  /** The observation, cut to 2,000 characters. */
  observation: z.string(),
  refused: z.string().nullable(),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

export const TOOL_DESCRIPTIONS: Record<Action["type"], string> = {
  read_file: '{"type":"read_file","path":"pkg/mod.py"} — a file\'s text',
  write_file: '{"type":"write_file","path":"pkg/mod.py","content":"..."} — create or overwrite a file',
  edit: '{"type":"edit","path":"pkg/mod.py","search":"old text","replace":"new text"} — replace one exact occurrence',
  list_dir: '{"type":"list_dir","path":"."} — a directory listing',
  run_tests: '{"type":"run_tests","tests":["tests/test_x.py::test_y"]} — run chosen tests (all when omitted)',
  shell: '{"type":"shell","command":"python3 -c \'...\'"} — an allowlisted shell command',
  submit: '{"type":"submit"} — finish; the hidden grader runs the tests',
};
