// Round-six red team (issue 26 §7) as rows of the suite (test/redteam/round6.ts): every row's payload
// (test/redteam/payloads/round6/<id>.diff) graded through gradeCompletion on one warm bwrap sandbox,
// two at a time, with the committed oracles. A wrong body must earn < 0.5 or be flagged; an honest one
// must earn 1 unflagged. Rows marked `open` do not today: they run as `it.fails` (red the day their
// cause is fixed; then drop `open` from the row so it asserts). The goldens of every task the rows use
// earn 1 unflagged. The hooks and tests are test/redteam/suite.ts's (shared with round 7).
import { ROUND6_POOLS, ROUND6_ROWS } from "./redteam/round6.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "6", pools: ROUND6_POOLS, rows: ROUND6_ROWS, minRows: 90 });
