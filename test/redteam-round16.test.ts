// Round-sixteen red team (issue 26 §7; test/redteam/round16.ts: attempts from the contract alone
// against the run at home after round 15's fixes): every row's payload graded through gradeCompletion
// on one warm bwrap sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or
// flagged, honest ones 1 unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND16_POOLS, ROUND16_ROWS } from "./redteam/round16.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "16", pools: ROUND16_POOLS, rows: ROUND16_ROWS, minRows: 35 });
