// Round-twenty-nine red team (issue 26 §7; test/redteam/round29.ts: attempts from the contract
// against the clock jump, on the real markupsafe task and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND29_POOLS, ROUND29_ROWS } from "./redteam/round29.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "29", pools: ROUND29_POOLS, rows: ROUND29_ROWS, minRows: 16 });
