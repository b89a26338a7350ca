// Round-thirty-three red team (issue 26 §7; test/redteam/round33.ts: attempts from the contract against
// the original's pace, the chains' rounds and holds, the judged history refills and the arguments
// after a call written once, on fd-micro): every row's payload graded through gradeCompletion on one
// warm bwrap sandbox, two at a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest
// ones 1 unflagged; open rows run as it.fails.
import { ROUND33_POOLS, ROUND33_ROWS } from "./redteam/round33.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "33", pools: ROUND33_POOLS, rows: ROUND33_ROWS, minRows: 19 });
