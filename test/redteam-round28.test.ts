// Round-twenty-eight red team (issue 26 §7; test/redteam/round28.ts: attempts from the contract
// against the history and the index sites, on the real markupsafe task and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND28_POOLS, ROUND28_ROWS } from "./redteam/round28.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "28", pools: ROUND28_POOLS, rows: ROUND28_ROWS, minRows: 13 });
