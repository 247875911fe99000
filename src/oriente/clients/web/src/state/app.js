// The page's state: one plain object, replaced by `reduce` for each
// action. What it holds: the words (language, catalogues, translator),
// the games' reference data, the connection (its Net and whether it is
// up), the person (name, sound, account), the lobby's listing, the
// address (route), the dialog and the message shown, every table this
// page follows (by id, table.js's states) and every tournament.
import { newTable, tableReducer } from "./table.js";

export function initialState({ name = "", sound = false } = {}) {
  return {
    ready: false,
    lang: "en",
    cat: null, // the current catalogue
    en: null, // English, the fallback
    t: (k) => k,
    refs: {}, // each game's reference data, by game (/data/GAME/reference.json, made by its folder's `reference`)
    games: false, // whether the folders of the games the server plays are loaded (games.js)
    net: null,
    up: false,
    name,
    sound,
    tables: new Map(), // the tables this page follows: id -> table state (table.js)
    listing: [],
    listed: false,
    route: { page: "lobby" },
    replayGame: null, // the game of the replay on screen
    dialog: null, // {kind: "reference", game, focus}: a game's reference
    error: null,
    account: null, // the signed-in account's card (account.js), or null
    tournaments: new Map(), // id -> the newest state of a tournament this page follows
  };
}

function withTable(state, id, ts) {
  const tables = new Map(state.tables);
  if (ts === null) tables.delete(id); else tables.set(id, ts);
  return { ...state, tables };
}

// The actions (`type`, then the fields each carries):
//   booted {net}                  the connection
//   games {refs}                  the folders of the games the server plays are loaded, with their reference data
//   ready                         the page may draw
//   lang {lang, cat, en, t}       the language, its catalogue, English (the fallback) and the translator
//   up {up}                       the connection went up or down
//   name {name} | sound {on} | account {account} | route {route} | dialog {dialog} | error {text}
//   listing {tables}              the lobby's tables
//   replay/game {game}            the game of the replay on screen
//   tournament {id, state}        a tournament's newest state
//   tables/follow {table}         start following a table (a fresh state unless followed already)
//   tables/forget {table}         stop following it
//   table/... {table, ...}        one table's actions (table.js)
export function reduce(state, action) {
  switch (action.type) {
    case "booted": return { ...state, net: action.net };
    case "games": return { ...state, refs: { ...state.refs, ...action.refs }, games: true };
    case "ready": return { ...state, ready: true };
    case "lang": return { ...state, lang: action.lang, cat: action.cat, en: action.en, t: action.t };
    case "up": return { ...state, up: action.up };
    case "name": return { ...state, name: action.name };
    case "sound": return { ...state, sound: action.on };
    case "account": return { ...state, account: action.account };
    // A message belongs to the page it was said on: another page starts without it.
    case "route": return { ...state, route: action.route, dialog: null, error: null };
    case "dialog": return { ...state, dialog: action.dialog };
    case "error": return { ...state, error: action.text };
    case "listing": return { ...state, listing: action.tables, listed: true };
    case "replay/game": return { ...state, replayGame: action.game };
    case "tournament": return { ...state, tournaments: new Map(state.tournaments).set(action.id, action.state) };
    case "tables/follow": return state.tables.has(action.table) ? state : withTable(state, action.table, newTable(action.table));
    case "tables/forget": return state.tables.has(action.table) ? withTable(state, action.table, null) : state;
    default: {
      if (!action.type.startsWith("table/")) return state;
      const ts = state.tables.get(action.table);
      if (!ts) return state;
      const next = tableReducer(ts, action);
      return next === ts ? state : withTable(state, action.table, next);
    }
  }
}
