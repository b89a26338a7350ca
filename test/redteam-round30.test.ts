// Round-thirty red team (issue 26 §7; test/redteam/round30.ts: attempts from the contract against
// the in-place asks and the history's kin kinds, on fd-micro): every row's payload graded through
// gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles; wrong bodies
// < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND30_POOLS, ROUND30_ROWS } from "./redteam/round30.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "30", pools: ROUND30_POOLS, rows: ROUND30_ROWS, minRows: 14 });
