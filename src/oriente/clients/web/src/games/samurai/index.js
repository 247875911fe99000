// Samurai on the page, loaded by games.js as /games/samurai.js (what the
// build makes of this folder, with its screen.css): its screen, its
// narrator, and the reference of maps and tiles the server serves
// (/data/samurai/reference.json).
import { app } from "../../state.js";
import { SamuraiNarrator } from "./narrate.js";
import { SamuraiDecision, SamuraiReference, SamuraiResult, SamuraiStage } from "./screen.js";

// Hexes and tiles are named by the table's own map and tile set (the view's), else the defaults.
const board = (ts) => (ts.view && ts.view.board) || (app.refs.samurai && app.refs.samurai.board);

export default {
  name: "samurai",
  Stage: SamuraiStage,
  Decision: SamuraiDecision,
  Result: SamuraiResult,
  Reference: SamuraiReference,
  reference: (data) => data,
  narrator: (ts, label) => new SamuraiNarrator(app.cat, app.en, board(ts), (ts.view && ts.view.tile_set) || app.refs.samurai.tiles, label),
  narratorBasis: board,
  stylesheet: true, // its screen.css, built into /games/samurai.css
  // What the game is, for a server that does not say (welcome.game_info): S1.2.
  info: { seats: { min: 2, max: 4, default: 3 }, options: [], windows: false },
};
