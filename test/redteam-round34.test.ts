// Round-thirty-four red team (issue 26 §7; test/redteam/round34.ts: attempts from the contract against
// the history's watched arguments, its kept buffer and the judged arguments after a call, on
// fd-micro): every row's payload graded through gradeCompletion on one warm bwrap sandbox, two at a
// time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows
// run as it.fails.
import { ROUND34_POOLS, ROUND34_ROWS } from "./redteam/round34.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "34", pools: ROUND34_POOLS, rows: ROUND34_ROWS, minRows: 19 });
