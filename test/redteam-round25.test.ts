// Round-twenty-five red team (issue 26 §7; test/redteam/round25.ts: attempts from the contract
// against round 24's fixes, on the real markupsafe and jinja2 tasks and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND25_POOLS, ROUND25_ROWS } from "./redteam/round25.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "25", pools: ROUND25_POOLS, rows: ROUND25_ROWS, minRows: 40 });
