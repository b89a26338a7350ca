// Round-twenty-four red team (issue 26 §7; test/redteam/round24.ts: attempts from the contract
// against round 23's fixes, on the real markupsafe and jinja2 tasks and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND24_POOLS, ROUND24_ROWS } from "./redteam/round24.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "24", pools: ROUND24_POOLS, rows: ROUND24_ROWS, minRows: 40 });
