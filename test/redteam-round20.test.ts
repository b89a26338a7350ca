// Round-twenty red team (issue 26 §7; test/redteam/round20.ts: attempts from the contract against
// round 19's run at home, on the real markupsafe tasks and fd-micro): every row's payload graded
// through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles; wrong
// bodies < 0.5 or flagged, honest ones 1 unflagged (test/redteam/suite.ts).
import { ROUND20_POOLS, ROUND20_ROWS } from "./redteam/round20.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "20", pools: ROUND20_POOLS, rows: ROUND20_ROWS, minRows: 21 });
