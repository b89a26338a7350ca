// Round-ten red team (issue 26 §7) as rows of the suite (test/redteam/round10.ts: one body a paying
// class of the red team's report — characters the chars probe did not draw, magnitudes past 10^30,
// machine facts the key probe's second run did not move — reconstructed by the team): every row's
// payload (test/redteam/payloads/round10/<id>.diff) graded through gradeCompletion on one warm bwrap
// sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1
// unflagged; `open` rows run as it.fails (test/redteam/suite.ts); every wrong body passes its visible tests.
import { ROUND10_POOLS, ROUND10_ROWS } from "./redteam/round10.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "10", pools: ROUND10_POOLS, rows: ROUND10_ROWS, minRows: 16, wrongPassVisibleTests: true });
