// Round-twenty-seven red team (issue 26 §7; test/redteam/round27.ts: attempts from the contract
// against the history, on the real markupsafe task and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND27_POOLS, ROUND27_ROWS } from "./redteam/round27.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "27", pools: ROUND27_POOLS, rows: ROUND27_ROWS, minRows: 16 });
