// "My games": the tables this browser sat at, newest first, with what it
// saw of each (game, name, how it stands, and at the end the seat's rank
// and points), kept in the browser as the page draws them, with a way back
// to the table and to its replay from the seat. The seat tokens themselves
// stay where they are (state.js `seats`); this is only their record.
import { h } from "preact";
import htm from "htm";
import { gameName } from "./games.js";
import { app, seats } from "./state.js";

const html = htm.bind(h);
const KEY = "oriente.games";
const KEEP = 30;

export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
}

// A table drawn: its line in "my games", when this browser holds a seat there.
export function remember(ts) {
  if (!ts.seated || !ts.info || !seats.get(ts.id)) return;
  const r = ts.info.result || (ts.view && ts.view.result) || null;
  const entry = {
    table: ts.id, game: ts.game, name: ts.info.settings.name || "", seat: ts.you, status: ts.info.status,
    seats: ts.info.settings.seats, rank: r && Array.isArray(r.ranks) ? r.ranks[ts.you] ?? null : null,
    score: r && Array.isArray(r.scores) ? r.scores[ts.you] ?? null : null,
  };
  const all = myGames();
  const old = all.find((x) => x.table === ts.id);
  if (old && ["table", "game", "name", "seat", "status", "seats", "rank", "score"].every((k) => old[k] === entry[k])) return;
  const next = [{ ...entry, at: old ? old.at : Date.now() }, ...all.filter((x) => x.table !== ts.id)].slice(0, KEEP);
  try { localStorage.setItem(KEY, JSON.stringify(next)); } catch (e) { /* full: the list stays as it was */ }
}

export function MyGames() {
  const t = app.t;
  const held = seats.all();
  const games = myGames();
  const known = new Set(games.map((g) => g.table));
  const bare = Object.keys(held).filter((id) => !known.has(id)); // seats taken before this list was kept
  if (!games.length && !bare.length) return null;
  return html`<section class="my-games" aria-label=${t("mine.title")}>
    <h2>${t("mine.title")}</h2>
    <ul>
      ${games.map((g) => html`<li key=${g.table} class=${`mine-${g.status}`}>
        <a href=${`#/t/${g.table}`}><b>${g.name || t("table.untitled")}</b></a>
        <span class="tag game">${gameName(g.game)}</span>
        <span class="small">${t(`mine.status.${g.status}`)}${g.rank !== null && g.rank !== undefined
          ? ` · ${t("mine.rank", { rank: g.rank, seats: g.seats, score: g.score ?? "?" })}` : ""}</span>
        ${g.status === "finished" && html`<a class="small" href=${`#/r/${g.table}?as=${g.seat}`}>${t("result.replay")}</a>`}
        <span class="muted small">${new Date(g.at).toLocaleDateString(app.lang)}</span>
      </li>`)}
      ${bare.map((id) => html`<li key=${id}><a href=${`#/t/${id}`}>${id}</a></li>`)}
    </ul>
  </section>`;
}
