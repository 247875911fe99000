// "My games": the tables this browser sat at, newest first, with what it
// saw of each (game, name, how it stands, and at the end the seat's rank
// and points), kept in the browser as the page draws them, with a way back
// to the table and to its replay from the seat. The seat tokens themselves
// stay where they are (state.js `seats`); this is only their record. The
// server says how each stands now, and adds the signed-in account's own
// tables, through one request (PROTOCOL.md 3, my_tables); a server that
// does not know it leaves the list as this browser saw it.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { gameName } from "./games.js";
import { notifyTurn } from "./notify.js";
import { app, seats } from "./state.js";

const html = htm.bind(h);
const KEY = "oriente.games";
const KEEP = 30;

export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
}

// A table's line, from its information (a snapshot's, or my_tables') and the seat held there.
function entryOf(info, seat, result) {
  const r = result || info.result || null;
  const mine = typeof seat === "number";
  return {
    table: info.table, game: info.game || "oriente", name: (info.settings && info.settings.name) || "", seat,
    status: info.status, seats: info.settings ? info.settings.seats : null,
    rank: mine && r && Array.isArray(r.ranks) ? r.ranks[seat] ?? null : null,
    score: mine && r && Array.isArray(r.scores) ? r.scores[seat] ?? null : null,
  };
}

// A table drawn: its line in "my games", when this browser holds a seat there.
export function remember(ts) {
  if (!ts.seated || !ts.info || !seats.get(ts.id)) return;
  keep(entryOf({ ...ts.info, table: ts.id, game: ts.game }, ts.you, ts.info.result || (ts.view && ts.view.result)));
}

function keep(entry) {
  const all = myGames();
  const old = all.find((x) => x.table === entry.table);
  if (old && ["table", "game", "name", "seat", "status", "seats", "rank", "score"].every((k) => old[k] === entry[k])) return;
  // A table seen again keeps its place (newest first by when it was first seen).
  const next = old ? all.map((x) => (x === old ? { ...entry, at: old.at } : x)) : [{ ...entry, at: Date.now() }, ...all].slice(0, KEEP);
  try { localStorage.setItem(KEY, JSON.stringify(next)); } catch (e) { /* full: the list stays as it was */ }
}

// How the server says this browser's and the account's tables stand now (my_tables), asked again now and then.
function useTold() {
  const [told, setTold] = useState([]);
  useEffect(() => {
    if (!app.net || !app.up) return undefined;
    let gone = false;
    const ask = () => {
      const ids = [...new Set([...myGames().map((g) => g.table), ...Object.keys(seats.all())])].slice(0, 50);
      app.net.request({ t: "my_tables", tables: ids, limit: 50 }).then((ok) => {
        if (gone) return;
        for (const info of ok.tables || []) {
          const held = seats.get(info.table);
          const seat = held && typeof held.seat === "number" ? held.seat : info.you;
          if (typeof seat === "number") keep(entryOf(info, seat, null));
        }
        setTold(ok.tables || []);
      }, () => {}); // a server without my_tables: the list as this browser saw it
    };
    ask();
    const timer = setInterval(ask, 5000);
    return () => { gone = true; clearInterval(timer); };
  }, [app.up, app.account]);
  return told;
}

export function MyGames() {
  const t = app.t;
  const told = useTold();
  const held = seats.all();
  const games = myGames();
  for (const info of told) { // the account's tables this browser never sat at
    if (!games.some((g) => g.table === info.table) && typeof info.you === "number") games.push({ ...entryOf(info, info.you, null), at: Date.now() });
  }
  // The tables that await the account come first, the nearest deadline first (my_tables' awaits, until_ms).
  const waits = new Map(told.filter((x) => x.awaits).map((x) => [x.table, x.until_ms ?? Infinity]));
  games.sort((a, b) => (waits.get(a.table) ?? Infinity) - (waits.get(b.table) ?? Infinity)
    || (waits.has(b.table) - waits.has(a.table)));
  for (const x of told) if (x.awaits) notifyTurn(`mine/${x.table}/${x.until_ms}`, x.table, x.settings && x.settings.name);
  const known = new Set(games.map((g) => g.table));
  const bare = Object.keys(held).filter((id) => !known.has(id)); // seats taken before this list was kept
  if (!games.length && !bare.length) return null;
  return html`<section class="my-games" aria-label=${t("mine.title")}>
    <h2>${t("mine.title")}</h2>
    <ul>
      ${games.map((g) => html`<li key=${g.table} class=${`mine-${g.status}`}>
        <a href=${`#/t/${g.table}`}><b>${g.name || t("table.untitled")}</b></a>
        <span class="tag game">${gameName(g.game)}</span>
        ${waits.has(g.table) && html`<span class="tag your-turn">${waits.get(g.table) === Infinity ? t("mine.your_turn")
          : t("mine.your_turn_until", { when: new Date(waits.get(g.table)).toLocaleString(app.lang, { dateStyle: "medium", timeStyle: "short" }) })}</span>`}
        <span class="small">${t(`mine.status.${g.status}`)}${g.rank !== null && g.rank !== undefined
          ? ` · ${t("mine.rank", { rank: g.rank, seats: g.seats, score: g.score ?? "?" })}` : ""}</span>
        ${g.status === "finished" && html`<a class="small" href=${`#/r/${g.table}?as=${g.seat}`}>${t("result.replay")}</a>`}
        <span class="muted small">${new Date(g.at).toLocaleDateString(app.lang)}</span>
      </li>`)}
      ${bare.map((id) => html`<li key=${id}><a href=${`#/t/${id}`}>${id}</a></li>`)}
    </ul>
  </section>`;
}
