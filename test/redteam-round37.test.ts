// Round-thirty-seven red team (issue 26 §7; test/redteam/round37.ts: attempts from the contract
// against the bursts' turns inside a call — races the turns miss, and false flags — on fd-micro):
// every row's payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with
// the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as
// it.fails.
import { ROUND37_POOLS, ROUND37_ROWS } from "./redteam/round37.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "37", pools: ROUND37_POOLS, rows: ROUND37_ROWS, minRows: 25 });
