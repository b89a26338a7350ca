// Round-seven red team (issue 26 §7) as rows of the suite (test/redteam/round7.ts: bodies reconstructed
// from docs/grader.md, "Round 7"): every row's payload (test/redteam/payloads/round7/<id>.diff) graded
// through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles. A wrong
// body must earn < 0.5 or be flagged; an honest one must earn 1 unflagged. Rows marked `open` do not
// today: they run as `it.fails` (red the day their cause is fixed; then drop `open` from the row so it
// asserts). The goldens of every task the rows use earn 1 unflagged. The hooks and tests are
// test/redteam/suite.ts's (shared with round 6); scratch/redteam-r7b/regrade.sh grades the same
// payloads through the CLI.
import { ROUND7_POOLS, ROUND7_ROWS } from "./redteam/round7.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "7", pools: ROUND7_POOLS, rows: ROUND7_ROWS, minRows: 70, wrongPassVisibleTests: true });
