// The games this page offers, and how it draws each. What a game is — its
// seat counts, its options with their types and defaults, whether it has
// negotiation windows — the server says (welcome.game_info). How the page
// draws it is the game's own folder (games/NAME/index.js: its stage,
// decision, end, narrator, reference and panels, and its screen.css),
// which the build makes into a module of its own (/games/NAME.js, and
// /games/NAME.css): the page loads it once the server says it plays NAME
// (`loadGames`), so the page itself names no game. A game without one
// gets the generic screen (generic.js) and narrator.
import { GenericDecision, GenericResult, GenericStage } from "./generic.js";
import { UNNAMED_GAME } from "./state/table.js";
import { app, dispatch } from "./state.js";

const PAGES = new Map(); // name -> its folder's module, once loaded
const GENERIC = { Stage: GenericStage, Decision: GenericDecision, Result: GenericResult, panels: [] };
const UIS = new Map();

// What the page assumes of a game that neither the server (a server older
// than welcome.game_info) nor a folder of this page describes: any seat
// count from 2 to 8 (the server refuses others with its reason), no options.
export const UNDESCRIBED = { seats: { min: 2, max: 8, default: 2 }, options: [], windows: false };

// How the page draws `game`: its folder's parts over the generic ones (the
// generic screen alone while its folder is not loaded, or when it has none).
export function gameUi(game) {
  const page = PAGES.get(game);
  if (!page) return GENERIC;
  if (!UIS.has(game)) UIS.set(game, { ...GENERIC, ...page });
  return UIS.get(game);
}

// A game's stylesheet, in the page's head; resolves once it applies (or failed: the screen still works).
function stylesheet(href) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.appendChild(link);
  });
}

// A game's folder, its stylesheet and its reference data, fetched once:
// the module's parts (null: the page has no folder for the game).
const loading = new Map();
function loadGame(name) {
  if (!loading.has(name)) {
    loading.set(name, (async () => {
      const base = `/games/${encodeURIComponent(name)}`;
      let page;
      try {
        page = (await import(`${base}.js`)).default;
      } catch (err) {
        return null; // no folder for this game: the generic screen draws it
      }
      const [, ref] = await Promise.all([page.stylesheet ? stylesheet(`${base}.css`) : null,
        page.reference ? fetch(`/data/${encodeURIComponent(name)}/reference.json`)
          .then((r) => (r.ok ? r.json() : null)).catch(() => null) : null]);
      return { page, ref: ref ? page.reference(ref) : null };
    })());
  }
  return loading.get(name);
}

// Load the folders of `names` (the games the server plays), then draw again with them.
export async function loadGames(names) {
  const loaded = await Promise.all(names.map(loadGame));
  const refs = {};
  names.forEach((name, i) => {
    if (!loaded[i]) return;
    PAGES.set(name, loaded[i].page);
    if (loaded[i].ref) refs[name] = loaded[i].ref;
  });
  dispatch({ type: "games", refs });
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
