// Round-twenty-three red team (issue 26 §7; test/redteam/round23.ts: attempts from the contract
// against round 22's fixes, on the real markupsafe and jinja2 tasks and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND23_POOLS, ROUND23_ROWS } from "./redteam/round23.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "23", pools: ROUND23_POOLS, rows: ROUND23_ROWS, minRows: 40 });
