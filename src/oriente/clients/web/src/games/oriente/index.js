// Oriente on the page, loaded by games.js as /games/oriente.js (what the
// build makes of this folder): its screen, its narrator, the deals panel
// beside the story, and the card reference the server serves
// (/data/oriente/reference.json).
import { h } from "preact";
import htm from "htm";
import { app } from "../../state.js";
import { CardReference, makeRef } from "./cards.js";
import { DealsPanel } from "./deals.js";
import { OrienteNarrator } from "./narrate.js";
import { logGroup, logIcon } from "./log.js";
import { observe, SeasonRecap } from "./recap.js";
import { actionLabel, AUTO_PASS, Decision, Result, Ring } from "./screen.js";

const html = htm.bind(h);

// The table: the recap of a season just ended above the seats around the square.
function Stage({ ts, view }) {
  return html`<${SeasonRecap} ts=${ts} actionText=${(a) => actionLabel(ts, a)} /><${Ring} ts=${ts} view=${view} />`;
}

export default {
  name: "oriente",
  Stage,
  onStep: observe, // each step drawn: the piles a season's recap compares
  logGroup, // the log by season and fight
  logIcon,
  Decision,
  Result,
  autoPass: AUTO_PASS, // the rounds a person may pass at once (R10.2d: unconditionally)
  Reference: CardReference,
  referenceTitle: "ref.title",
  reference: makeRef, // the served reference, made into look-ups of cards
  panels: [{ key: "deals", Panel: DealsPanel, count: (ts) => (ts.view && ts.view.deals ? ts.view.deals.length : 0) }],
  narrator: (ts, label) => new OrienteNarrator(app.cat, app.en, app.refs.oriente, label),
  narratorBasis: () => app.refs.oriente,
  // What the game is, for a server that does not say (welcome.game_info): rules R1.
  info: { seats: { min: 4, max: 12, default: 4 }, options: [{ name: "max_open_proposals", type: "int", default: 3, min: 1, max: 20 }], windows: true },
};
