// Round-thirty-two red team (issue 26 §7; test/redteam/round32.ts: attempts from the contract against
// the latent paths' value recorder and chains, the history's own time and the chains' holds and steps,
// on fd-micro): every row's payload graded through gradeCompletion on one warm bwrap sandbox, two at
// a time, with the committed oracles; wrong bodies < 0.5 or flagged, honest ones 1 unflagged; open
// rows run as it.fails.
import { ROUND32_POOLS, ROUND32_ROWS } from "./redteam/round32.js";
import { redteamSuite } from "./redteam/suite.js";

redteamSuite({ round: "32", pools: ROUND32_POOLS, rows: ROUND32_ROWS, minRows: 30 });
