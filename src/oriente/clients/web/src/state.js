// The page's state in one place, and a hook that re-renders on change.
import { useEffect, useState } from "preact/hooks";

export const app = {
  ready: false,
  lang: "en",
  cat: null, // the current catalogue
  en: null, // English, the fallback
  t: (k) => k,
  ref: null, // Oriente's card reference (games/oriente/cards.js)
  refs: {}, // other games' reference data, by game (/data/GAME/reference.json)
  net: null,
  up: false,
  name: localStorage.getItem("oriente.name") || "",
  sound: localStorage.getItem("oriente.sound") === "on",
  tables: new Map(), // live subscriptions: table id -> TableState
  listing: [],
  route: { page: "lobby" },
  dialog: null, // {kind: "cards", focus} | {kind: "deal"}
  error: null,
  account: null, // the signed-in account's card (account.js), or null
};

const subscribers = new Set();
let queued = false;

export function changed() {
  if (queued) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    for (const fn of subscribers) fn();
  });
}

export function useApp() {
  const [, tick] = useState(0);
  useEffect(() => {
    const fn = () => tick((x) => x + 1);
    subscribers.add(fn);
    return () => subscribers.delete(fn);
  }, []);
  return app;
}

// The default game: tables that name none are Oriente's (games.js has the others).
export const GAME = "oriente";

// The server's bots for a game, its default first (welcome.bots); none
// when the server runs no bots.
export function botKinds(game = GAME) {
  const bots = app.net && app.net.welcome ? app.net.welcome.bots : null;
  return (bots && bots[game]) || [];
}

// A secret nonce for a seat: it makes a retried join safe, and its hash is
// the seat's share of the table's seed (PROTOCOL.md join; verify.js checks it).
export function newNonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Tokens are kept in the browser: the only way back to a seat. With each,
// the seat's secret `nonce` and the `commitment` the table showed before
// the nonce was sent: the record is checked against that one (verify.js).
export const seats = {
  all() {
    try { return JSON.parse(localStorage.getItem("oriente.seats") || "{}"); } catch (e) { return {}; }
  },
  get(table) { return this.all()[table] || null; },
  put(table, entry) {
    const all = this.all();
    all[table] = entry;
    localStorage.setItem("oriente.seats", JSON.stringify(all));
  },
  drop(table) {
    const all = this.all();
    delete all[table];
    localStorage.setItem("oriente.seats", JSON.stringify(all));
  },
};

// What to tell a person about a refused request: the catalogue's sentence
// for its stable code where there is one, else the server's own words.
export function errorText(err) {
  if (!err) return "";
  const key = `error.${err.code}`;
  // A refusal that passes with time says how long (PROTOCOL.md 4, error).
  const seconds = typeof err.retry_after === "number" ? Math.max(1, Math.ceil(err.retry_after)) : "…";
  const text = app.t(key, { seconds });
  return text !== key ? text : err.message || err.code || "";
}

export function say(text) {
  app.error = text;
  changed();
  setTimeout(() => { if (app.error === text) { app.error = null; changed(); } }, 6000);
}
