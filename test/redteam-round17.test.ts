// Round-seventeen red team (issue 26 §7; test/redteam/round17.ts: attempts from the contract against
// round 16's entry script): every row's payload graded through gradeCompletion on one warm bwrap
// sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1
// unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND17_POOLS, ROUND17_ROWS } from "./redteam/round17.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "17", pools: ROUND17_POOLS, rows: ROUND17_ROWS, minRows: 15 });
