// The page's state: one store (state/store.js) whose reducer
// (state/app.js) takes explicit actions; `app` is always its current
// state, read by the components, and `dispatch` the one way to change it.
// A component that draws from it calls `useApp()` to be drawn again on change.
import { useEffect, useState } from "preact/hooks";
import { initialState, reduce } from "./state/app.js";
import { createStore } from "./state/store.js";

const store = createStore(reduce, initialState({
  name: localStorage.getItem("oriente.name") || "",
  sound: localStorage.getItem("oriente.sound") === "on",
}));

// The current state (a live binding: it follows every dispatch).
export let app = store.state;

export function dispatch(action) {
  store.dispatch(action);
  app = store.state;
}

// The person's name, kept in this browser for the next visit.
export function setName(name) {
  localStorage.setItem("oriente.name", name);
  dispatch({ type: "name", name });
}

export function useApp() {
  const [, tick] = useState(0);
  useEffect(() => store.subscribe(() => tick((x) => x + 1)), []);
  return app;
}

// The server's bots for a game, its default first (welcome.bots); none
// when the server runs no bots.
export function botKinds(game) {
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
  dispatch({ type: "error", text });
  setTimeout(() => { if (app.error === text) dispatch({ type: "error", text: null }); }, 6000);
}
