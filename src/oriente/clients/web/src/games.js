// The games this page draws, and what differs between them: the seat
// counts and options the lobby offers, the table screen's components, the
// narrator, the reference dialog. Oriente's components are games/oriente/screen.js
// (its `Ring`, `Decision` and `Result`, with deals); another game brings
// its folder (games/oro/, games/samurai/) and a line here. The server says which games it plays
// (welcome.games); the lobby offers those this page knows.
import { OroNarrator } from "./games/oro/narrate.js";
import { OroDecision, OroReference, OroResult, OroStage } from "./games/oro/screen.js";
import { SamuraiNarrator } from "./games/samurai/narrate.js";
import { SamuraiDecision, SamuraiReference, SamuraiResult, SamuraiStage } from "./games/samurai/screen.js";
import { app } from "./state.js";

export const GAMES = {
  oriente: { seats: [4, 12, 4], options: [], deals: true },
  oro: {
    seats: [2, 4, 3], // O1.6; the lobby suggests three
    options: [{ key: "gods", label: "lobby.gods", initial: true }], // O7: a checkbox per boolean option
    Stage: OroStage, Decision: OroDecision, Result: OroResult, Reference: OroReference,
    // Islands are named by the table's own board (the view's), else the default one.
    narrator: (ts, label) => new OroNarrator(app.cat, app.en, (ts.view && ts.view.board) || app.refs.oro.board, label),
    narratorBasis: (ts) => (ts.view && ts.view.board) || (app.refs.oro && app.refs.oro.board),
  },
  samurai: {
    seats: [2, 4, 3], // S1.2; the lobby suggests three
    options: [],
    Stage: SamuraiStage, Decision: SamuraiDecision, Result: SamuraiResult, Reference: SamuraiReference,
    // Hexes and tiles are named by the table's own map and tile set (the view's), else the defaults.
    narrator: (ts, label) => new SamuraiNarrator(app.cat, app.en, (ts.view && ts.view.board) || app.refs.samurai.board,
      (ts.view && ts.view.tile_set) || app.refs.samurai.tiles, label),
    narratorBasis: (ts) => (ts.view && ts.view.board) || (app.refs.samurai && app.refs.samurai.board),
  },
};

export const KNOWN_GAMES = Object.keys(GAMES);

export function gameUi(game) {
  return GAMES[game] || GAMES.oriente;
}

// The games to offer: those the server plays (a server that predates
// `welcome.games` plays Oriente alone) and this page can draw.
export function servedGames() {
  const served = (app.net && app.net.welcome && app.net.welcome.games) || ["oriente"];
  return KNOWN_GAMES.filter((g) => served.includes(g));
}
