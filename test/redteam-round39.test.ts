// Round-thirty-nine red team (issue 26 §7; test/redteam/round39.ts: bodies wrong after 2,000 calls
// except where they read a condition of the run that made the history, on fd-micro): every row's
// payload graded through gradeCompletion on one warm bwrap sandbox, two at a time, with the committed
// oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open rows run as it.fails.
import { ROUND39_POOLS, ROUND39_ROWS } from "./redteam/round39.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "39", pools: ROUND39_POOLS, rows: ROUND39_ROWS, minRows: 29 });
