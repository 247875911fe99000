// A tournament organised from the page (PROTOCOL.md 21, docs/tournaments.md):
// the lobby's form creates one (its game, format, rounds, table size and
// timers), and the tournament's page, for the browser that keeps its
// organiser token, enters the server's bots, starts each round and shows
// the rounds' tables with their seats numbered as the table numbers them
// (seat 0, 1, … as the table's "#0", "#1" and its story's "seat 0").
import { h } from "preact";
import htm from "htm";
import { useState } from "preact/hooks";
import { gameInfo, gameName, servedGames } from "./games.js";
import { PRESETS, timerText } from "./lobby.js";
import { app, botKinds, errorText, say } from "./state.js";

const html = htm.bind(h);
const KEY = "oriente.organised"; // tournament -> organiser token

// What the server's own bots play with: no waiting, 2 s a decision (the SDK's BOT_TIMERS).
export const BOT_TIMERS = { prompt_ms: 2000, window_ms: 0, bank_ms: 0, bank_refill_ms: 0, zero_wait: true, away_after: 3 };

export const organised = {
  all() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  put(id, token) {
    const all = this.all();
    all[id] = token;
    localStorage.setItem(KEY, JSON.stringify(all));
  },
};

export async function createTournament(form) {
  const timers = form.timers === "bots" ? BOT_TIMERS : PRESETS[form.timers];
  const settings = { name: form.name.trim().slice(0, 64), game: form.game, format: form.format, rounds: form.rounds,
    table_sizes: [form.size], timers };
  try {
    const ok = await app.net.request({ t: "tournament_create", settings });
    organised.put(ok.tournament, ok.organiser_token);
    return ok.tournament;
  } catch (err) {
    say(errorText(err));
    return null;
  }
}

// The lobby's "Organise a tournament", folded until opened.
export function OrganiseForm() {
  const t = app.t;
  const games = servedGames();
  const [state, setForm] = useState({ name: "", game: null, format: "swiss", rounds: 3, size: null, timers: "normal" });
  const game = games.includes(state.game) ? state.game : games[0];
  const info = gameInfo(game);
  const size = state.size ?? info.seats.default;
  const form = { ...state, game, size };
  const set = (patch) => setForm({ ...form, ...patch });
  const [busy, setBusy] = useState(false);
  const submit = async (ev) => {
    ev.preventDefault();
    if (!form.name.trim()) { say(t("organise.need_name")); return; }
    setBusy(true);
    const id = await createTournament(form);
    setBusy(false);
    if (id) location.hash = `#/tournament/${id}`;
  };
  const sizes = Array.from({ length: info.seats.max - info.seats.min + 1 }, (_, i) => info.seats.min + i);
  return html`<details class="organise" id="organise">
    <summary>${t("organise.title")}</summary>
    <form class="organise-form" onSubmit=${submit} aria-label=${t("organise.title")}>
      <label class="field">${t("organise.name")}<input id="organise-name" maxlength="64" value=${form.name} onInput=${(e) => set({ name: e.target.value })} /></label>
      ${games.length > 1 && html`<label class="field">${t("lobby.game")}<select id="organise-game" value=${game}
          onChange=${(e) => set({ game: e.target.value, size: null })}>
        ${games.map((g) => html`<option key=${g} value=${g}>${gameName(g)}</option>`)}</select></label>`}
      <label class="field">${t("organise.format")}<select id="organise-format" value=${form.format} onChange=${(e) => set({ format: e.target.value })}>
        ${["swiss", "duplicate", "arena"].map((f) => html`<option key=${f} value=${f}>${t(`tournament.format_${f}`)} — ${t(`organise.format_${f}`)}</option>`)}</select></label>
      <label class="field">${t("organise.rounds")}<select id="organise-rounds" value=${String(form.rounds)} onChange=${(e) => set({ rounds: Number(e.target.value) })}>
        ${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}</select></label>
      <label class="field">${t("organise.size")}<select id="organise-size" value=${String(size)} onChange=${(e) => set({ size: Number(e.target.value) })}>
        ${sizes.map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}</select></label>
      <label class="field">${t("lobby.timers_label")}<select id="organise-timers" value=${form.timers} onChange=${(e) => set({ timers: e.target.value })}>
        ${Object.keys(PRESETS).map((k) => html`<option key=${k} value=${k}>${t(`preset.${k}`)} — ${timerText(PRESETS[k], game)}</option>`)}
        <option value="bots">${t("organise.timers_bots")}</option></select></label>
      <button type="submit" class="primary" id="organise-create" disabled=${busy || !app.up}>${t("organise.create")}</button>
    </form>
  </details>`;
}

async function direct(id, action, args = {}) {
  const token = organised.get(id);
  try {
    await app.net.request({ t: "tournament_direct", tournament: id, token, action, ...args });
    return true;
  } catch (err) {
    say(errorText(err));
    return false;
  }
}

// A round is over once every one of its tables is played or adjudicated.
const played = (table) => table.status === "finished" || table.status === "adjudicated";

// The organiser's part of a tournament's page: bots in, rounds started, the rounds' tables.
export function OrganiserPanel({ id, state }) {
  const t = app.t;
  const game = state.config.game;
  const kinds = botKinds(game);
  const [bot, setBot] = useState({ name: "", kind: "" });
  const kind = kinds.includes(bot.kind) ? bot.kind : kinds[0];
  const rounds = state.rounds || [];
  const last = rounds.length ? rounds[rounds.length - 1] : null;
  const running = Boolean(last && !last.tables.every(played));
  const names = new Map((state.entrants || []).map((e) => [e.id, e.name]));
  const enterBot = async (ev) => {
    ev.preventDefault();
    const name = bot.name.trim();
    if (!name) { say(t("organise.need_bot_name")); return; }
    try {
      await app.net.request({ t: "tournament_register", tournament: id, name, kind: "bot", policy: kind, organiser_token: organised.get(id) });
      setBot({ name: "", kind });
    } catch (err) { say(errorText(err)); }
  };
  return html`<section class="organiser" id="organiser" aria-label=${t("organise.panel")}>
    <h2>${t("organise.panel")}</h2>
    <p class="small muted">${t("organise.token_note")} <code>${organised.get(id)}</code></p>
    ${!state.finished && html`<div class="organiser-actions">
      ${kinds.length > 0 && state.config.bots !== "none" && html`<form class="add-bot" onSubmit=${enterBot}>
        <label class="field">${t("organise.bot_name")}<input id="organise-bot-name" maxlength="32" value=${bot.name}
          onInput=${(e) => setBot({ ...bot, name: e.target.value })} /></label>
        <label class="field">${t("lobby.bot_kind")}<select id="organise-bot-kind" value=${kind} onChange=${(e) => setBot({ ...bot, kind: e.target.value })}>
          ${kinds.map((k) => html`<option key=${k} value=${k}>${t(`bot.${k}`)}</option>`)}</select></label>
        <button type="submit" id="organise-add-bot" disabled=${!app.up}>${t("organise.add_bot")}</button>
      </form>`}
      ${state.config.format !== "arena" && rounds.length < state.config.rounds && html`<p>
        <button type="button" class="primary" id="organise-start" disabled=${running || !app.up}
          onClick=${() => direct(id, "start_round")}>${t("organise.start", { n: rounds.length + 1 })}</button>
        ${running && html` <span class="small muted">${t("organise.running", { n: last.number })}</span>`}</p>`}
    </div>`}
    ${rounds.length > 0 && html`<h3>${t("organise.rounds_title")}</h3>
      <ol class="rounds">${rounds.map((r) => html`<li key=${r.number}><b>${t("organise.round", { n: r.number })}</b>
        <ul>${r.tables.map((tb) => html`<li key=${tb.index} class="round-table">
          ${t("organise.table", { n: tb.index + 1 })} · ${t(`organise.status_${tb.status}`)}
          ${tb.table_id && html` · <a href=${`#/t/${tb.table_id}`}>${t(played(tb) ? "organise.open_table" : "lobby.watch")}</a>`}
          <div class="small">${tb.entrants.map((e, s) => html`<span key=${e} class="tag">${t("seat.n", { n: s })}: ${names.get(e) || e}</span>`)}</div>
        </li>`)}</ul></li>`)}</ol>`}
  </section>`;
}
