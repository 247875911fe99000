// Oro on the page, loaded by games.js as /games/oro.js (what the build
// makes of this folder, with its screen.css): its screen, its narrator,
// and the reference of islands and gods the server serves
// (/data/oro/reference.json).
import { app } from "../../state.js";
import { OroNarrator } from "./narrate.js";
import { OroDecision, OroReference, OroResult, OroStage } from "./screen.js";

// Islands are named by the table's own board (the view's), else the default one.
const board = (ts) => (ts.view && ts.view.board) || (app.refs.oro && app.refs.oro.board);

export default {
  name: "oro",
  Stage: OroStage,
  Decision: OroDecision,
  Result: OroResult,
  Reference: OroReference,
  reference: (data) => data,
  narrator: (ts, label) => new OroNarrator(app.cat, app.en, board(ts), label),
  narratorBasis: board,
  stylesheet: true, // its screen.css, built into /games/oro.css
  // What the game is, for a server that does not say (welcome.game_info): O1.6, O7.
  info: { seats: { min: 2, max: 4, default: 3 }, options: [{ name: "gods", type: "bool", default: false, suggested: true }], windows: false },
};
