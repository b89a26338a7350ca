// Round-twenty-two red team (issue 26 §7; test/redteam/round22.ts: attempts from the contract
// against round 21's grader, on the real markupsafe and jinja2 tasks): every row's payload graded
// through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed oracles;
// wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails; chance rows may
// pay where their draw says (test/redteam/suite.ts CHANCES).
import { ROUND22_POOLS, ROUND22_ROWS } from "./redteam/round22.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "22", pools: ROUND22_POOLS, rows: ROUND22_ROWS, minRows: 36 });
