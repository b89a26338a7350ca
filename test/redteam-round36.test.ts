// Round-thirty-six red team (issue 26 §7; test/redteam/round36.ts: attempts from the contract against
// the watch after the call with nested records and aliasing across calls, aimed first at false flags,
// on fd-micro): every row's payload graded through gradeCompletion on one warm bwrap sandbox, two at
// a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open
// rows run as it.fails.
import { ROUND36_POOLS, ROUND36_ROWS } from "./redteam/round36.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "36", pools: ROUND36_POOLS, rows: ROUND36_ROWS, minRows: 50 });
