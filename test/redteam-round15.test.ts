// Round-fifteen red team (issue 26 §7; test/redteam/round15.ts: attempts from the contract alone
// against the run at home): every row's payload graded through gradeCompletion on one warm bwrap
// sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1
// unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND15_POOLS, ROUND15_ROWS } from "./redteam/round15.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "15", pools: ROUND15_POOLS, rows: ROUND15_ROWS, minRows: 27 });
