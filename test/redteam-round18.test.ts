// Round-eighteen red team (issue 26 §7; test/redteam/round18.ts: attempts from the contract against
// round 17's run at home, mostly on the real markupsafe and jinja2 tasks): every row's payload graded
// through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles; wrong
// bodies < 0.5 or flagged, honest ones 1 unflagged; `open` rows run as it.fails (test/redteam/suite.ts).
import { ROUND18_POOLS, ROUND18_ROWS } from "./redteam/round18.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "18", pools: ROUND18_POOLS, rows: ROUND18_ROWS, minRows: 16 });
