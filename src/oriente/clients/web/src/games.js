// The games this page offers, and how it draws each. What a game is — its
// seat counts, its options with their types and defaults, whether it has
// negotiation windows — the server says (welcome.game_info). How the page
// draws it is the game's own folder (games/NAME/index.js: its stage,
// decision, end, narrator, reference and panels), found by the build
// (build.mjs makes the module "page-games" of every such folder); a game
// without one gets the generic screen (generic.js) and narrator.
import modules from "page-games";
import { GenericDecision, GenericResult, GenericStage } from "./generic.js";
import { UNNAMED_GAME } from "./state/table.js";
import { app } from "./state.js";

const PAGES = new Map(modules.map((m) => [m.name, m]));
const GENERIC = { Stage: GenericStage, Decision: GenericDecision, Result: GenericResult, panels: [] };
const UIS = new Map();

// What the page assumes of a game that neither the server (a server older
// than welcome.game_info) nor a folder of this page describes: any seat
// count from 2 to 8 (the server refuses others with its reason), no options.
export const UNDESCRIBED = { seats: { min: 2, max: 8, default: 2 }, options: [], windows: false };

// The games whose folder this page has (their reference data is fetched at start).
export const PAGE_GAMES = [...PAGES.values()];

export function gameUi(game) {
  if (!UIS.has(game)) UIS.set(game, { ...GENERIC, ...(PAGES.get(game) || {}) });
  return UIS.get(game);
}

export function gameInfo(game) {
  const told = app.net && app.net.welcome && app.net.welcome.game_info;
  return (told && told[game]) || (PAGES.get(game) && PAGES.get(game).info) || UNDESCRIBED;
}

// The games to offer: those the server plays (a server that predates
// `welcome.games` plays the unnamed game alone), each drawn by its folder
// or by the generic screen.
export function servedGames() {
  return (app.net && app.net.welcome && app.net.welcome.games) || [UNNAMED_GAME];
}

export function gameName(game) {
  const key = `game.${game}`;
  const text = app.t(key);
  return text === key ? game : text;
}

// The value a form starts an option with: the one the game suggests, else its default.
export function optionInitial(option) {
  return option.suggested ?? option.default;
}

// The words for one of a game's options: the game's own, else the lobby's, else its name.
export function optionLabel(game, name) {
  for (const key of [`${game}.option.${name}`, `lobby.${name}`]) {
    const text = app.t(key);
    if (text !== key) return text;
  }
  return name;
}
