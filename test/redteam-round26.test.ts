// Round-twenty-six red team (issue 26 §7; test/redteam/round26.ts: attempts from the contract
// against the latent paths, on the real markupsafe and jinja2 tasks and fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the
// committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND26_POOLS, ROUND26_ROWS } from "./redteam/round26.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "26", pools: ROUND26_POOLS, rows: ROUND26_ROWS, minRows: 50 });
