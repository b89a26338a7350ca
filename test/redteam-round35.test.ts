// Round-thirty-five red team (issue 26 §7; test/redteam/round35.ts: attempts from the contract against
// the watch after the call and in the main loop, and aliasing, on fd-micro): every row's payload
// graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed
// oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND35_POOLS, ROUND35_ROWS } from "./redteam/round35.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "35", pools: ROUND35_POOLS, rows: ROUND35_ROWS, minRows: 36 });
