// Round-nineteen red team (issue 26 §7; test/redteam/round19.ts: attempts from the contract against
// round 18's run at home, on the real markupsafe tasks and fd-micro): every row's payload graded
// through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles; wrong
// bodies < 0.5 or flagged, honest ones 1 unflagged (test/redteam/suite.ts).
import { ROUND19_POOLS, ROUND19_ROWS } from "./redteam/round19.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "19", pools: ROUND19_POOLS, rows: ROUND19_ROWS, minRows: 18 });
