// The lobby: your name, the tables with their seats and timers, and a
// table of your own (seats, timers, private, bots for the empty seats).
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { AccountBox, Badge } from "./account.js";
import { addBots, joinTable, slotLabel } from "./live.js";
import { gameInfo, gameName, optionInitial, optionLabel, servedGames } from "./games.js";
import { app, botKinds, dispatch, errorText, say, seats, setName } from "./state.js";
import { TournamentList } from "./tournament.js";
import { OrganiseForm } from "./organise.js";
import { UNNAMED_GAME } from "./state/table.js";
import TIMER_PRESETS from "../../../protocol/timer_presets.json";
import TURN_PRESETS from "../../../protocol/turn_presets.json";
import { MyGames } from "./mygames.js";

const html = htm.bind(h);

// The timers every client offers people (docs/table.md T1.8): one copy of
// the numbers, shared with the terminal client and the server's own tables.
// Each gives at least 45 s to bargain; a window closes early once the
// fighters say they are done (R10.2b1).
// Then the turn-based ones (docs/table.md T8): hours per decision, a bank of days.
export const PRESETS = { ...TIMER_PRESETS, ...TURN_PRESETS };

// Is this table turn-based (its timers say turn_based: true; a live table's leave it out)?
export const turnBased = (info) => Boolean(info && info.settings && info.settings.timers && info.settings.timers.turn_based);

// A turn-based table's mark, beside its name in the lobby and at the table.
export function KindTag({ info }) {
  return turnBased(info) ? html`<span class="tag turn-based">${app.t("lobby.turn_based")}</span>` : null;
}

// A table's timers in words; the time to negotiate only for a game that
// has negotiation windows (welcome.game_info's `windows`): a game without
// them is promised none.
export function timerText(timers, game = null) {
  const t = app.t;
  if (!timers) return "";
  if (timers.zero_wait) return t("lobby.timers_bots", { s: Math.round(timers.prompt_ms / 1000) });
  if (timers.turn_based) {
    const h = (ms) => Math.round(ms / 3600000 * 10) / 10;
    return t(game !== null && !gameInfo(game).windows ? "lobby.timers_turns_no_window" : "lobby.timers_turns",
      { h: h(timers.prompt_ms), w: h(timers.window_ms), d: Math.round(timers.bank_ms / 86400000 * 10) / 10 });
  }
  if (game !== null && !gameInfo(game).windows) {
    return t("lobby.timers_no_window", { s: Math.round(timers.prompt_ms / 1000), b: Math.round(timers.bank_ms / 1000) });
  }
  return t("lobby.timers", { s: Math.round(timers.prompt_ms / 1000), w: Math.round(timers.window_ms / 1000), b: Math.round(timers.bank_ms / 1000) });
}

async function refresh() {
  try {
    // The listing comes in pages (PROTOCOL.md 3, list_tables); a page is
    // small however many tables the server holds. The lobby shows up to 1000.
    let tables = [], cursor = null;
    do {
      const ok = await app.net.request({ t: "list_tables", cursor, limit: 200 });
      tables = tables.concat(ok.tables);
      cursor = ok.next ?? null;
    } while (cursor && tables.length < 1000);
    dispatch({ type: "listing", tables });
  } catch (e) { /* offline: the banner says so */ }
}

export async function createTable(form) {
  const settings = {
    t: "create_table", seats: form.seats, name: form.name.trim().slice(0, 64), public: !form.private,
    timers: PRESETS[form.preset], proxy_after: form.proxy ? Number(form.proxy) : null,
    game: form.game, options: Object.fromEntries(gameInfo(form.game).options.map((o) => [o.name, form.options[o.name] ?? optionInitial(o)])),
    rated: Boolean(form.rated && app.account),
  };
  let ok;
  try {
    ok = await app.net.request(settings);
  } catch (err) {
    say(errorText(err));
    return null;
  }
  const joined = await joinTable(ok.table, 0, ok.info && ok.info.settings ? ok.info.settings.commitment ?? null : null);
  if (!joined) return null;
  const kinds = botKinds(form.game);
  const kind = kinds.includes(form.kind) ? form.kind : kinds[0];
  if (form.bots > 0 && kind && !settings.rated) await addBots(ok.table, joined.token, kind, Math.min(form.bots, form.seats - 1));
  return ok.table;
}

function NameBox() {
  const t = app.t;
  return html`<label class="field namebox">${t("lobby.your_name")}
    <input id="name" maxlength="32" value=${app.name} autocomplete="nickname"
      onInput=${(e) => setName(e.target.value)} /></label>`;
}

function TableRow({ info }) {
  const t = app.t;
  const mine = seats.get(info.table);
  const taken = info.seats.filter((s) => s !== null);
  const free = info.settings.seats - taken.length;
  const go = async (seat) => {
    if (await joinTable(info.table, seat)) location.hash = `#/t/${info.table}`;
  };
  return html`<li class="table-row">
    <div class="title"><b>${info.settings.name || t("table.untitled")}</b>
      <span class="tag game">${gameName(info.game)}</span>
      <span class=${`status st-${info.status}`}>${t(`status_table.${info.status}`)}</span>
      ${info.settings.rated && html`<span class="tag rated">${t("account.rated")}</span>`}
      <${KindTag} info=${info} /></div>
    <div class="small">${t("lobby.seats", { taken: taken.length, seats: info.settings.seats })} · ${timerText(info.settings.timers, info.game || UNNAMED_GAME)}</div>
    <div class="small names">${taken.map((s) => html`<span key=${s.seat} class=${`tag${s.connected ? "" : " muted"}`}>${slotLabel(s)} <${Badge} account=${s.account} /></span>`)}</div>
    <div class="actions">
      ${mine ? html`<a class="button primary" href=${`#/t/${info.table}`}>${t("lobby.return")}</a>`
        : info.status === "open" && free > 0 && html`<button type="button" class="primary" onClick=${() => go(null)}>${t("lobby.join")}</button>`}
      ${info.status !== "finished" && !mine && html`<a class="button" href=${`#/t/${info.table}`}>${t("lobby.watch")}</a>`}
      ${info.status === "finished" && html`<a class="button" href=${`#/r/${info.table}`}>${t("lobby.replay")}</a>`}
    </div>
  </li>`;
}

function CreateForm() {
  const t = app.t;
  const games = servedGames();
  const [state, setForm] = useState({ game: null, name: "", seats: null, preset: "normal", private: false, bots: 3, kind: "", proxy: "", options: {} });
  // Until a game is picked, the first the server plays, with its default seats (welcome.game_info).
  const game = games.includes(state.game) ? state.game : games[0];
  const info = gameInfo(game);
  const seatsNow = state.seats ?? info.seats.default;
  const form = { ...state, game, seats: seatsNow, bots: Math.min(state.bots, seatsNow - 1) };
  const kinds = botKinds(form.game);
  const [low, high] = [info.seats.min, info.seats.max];
  const setGame = (next) => {
    const seatsNow = gameInfo(next).seats.default;
    setForm({ ...form, game: next, seats: seatsNow, bots: Math.min(form.bots, seatsNow - 1), kind: "", options: {} });
  };
  const [busy, setBusy] = useState(false);
  const set = (patch) => setForm({ ...form, ...patch });
  const submit = async (ev) => {
    ev.preventDefault();
    if (!app.name.trim()) { say(t("lobby.need_name")); document.getElementById("name").focus(); return; }
    // A turn-based table seats accounts only (docs/table.md T8.8): say so
    // before creating a table its creator could not sit at.
    if (PRESETS[form.preset].turn_based && !app.account) { say(t("error.auth/sign_in_required")); return; }
    setBusy(true);
    const id = await createTable(form);
    setBusy(false);
    if (id) location.hash = `#/t/${id}`;
  };
  return html`<form class="create" onSubmit=${submit} aria-label=${t("lobby.create")}>
    <h2>${t("lobby.create")}</h2>
    ${games.length > 1 && html`<label class="field">${t("lobby.game")}<select id="game" value=${form.game} onChange=${(e) => setGame(e.target.value)}>
      ${games.map((g) => html`<option key=${g} value=${g}>${gameName(g)}</option>`)}</select></label>`}
    <label class="field">${t("lobby.table_name")}<input maxlength="64" value=${form.name} placeholder=${t("lobby.table_name_hint")} onInput=${(e) => set({ name: e.target.value })} /></label>
    <label class="field">${t("lobby.seat_count")}<select id="seats" value=${String(form.seats)} onChange=${(e) => set({ seats: Number(e.target.value), bots: Math.min(form.bots, Number(e.target.value) - 1) })}>
      ${Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}</select></label>
    ${info.options.map((o) => html`<${OptionField} key=${o.name} game=${form.game} option=${o} value=${form.options[o.name] ?? optionInitial(o)}
      onChange=${(v) => set({ options: { ...form.options, [o.name]: v } })} />`)}
    <label class="field">${t("lobby.timers_label")}<select id="timers" value=${form.preset} onChange=${(e) => set({ preset: e.target.value })}>
      ${Object.keys(PRESETS).map((k) => html`<option key=${k} value=${k}>${t(`preset.${k}`)} — ${timerText(PRESETS[k], form.game)}</option>`)}</select></label>
    ${PRESETS[form.preset].turn_based && html`<p class="small muted" id="turn-based-note">${t("lobby.turn_based_note")}</p>`}
    ${kinds.length > 0 && html`<label class="field">${t("lobby.bots")}<select id="bots" value=${String(form.bots)} onChange=${(e) => set({ bots: Number(e.target.value) })}>
      ${Array.from({ length: form.seats }, (_, i) => i).map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}</select></label>
    <label class="field">${t("lobby.bot_kind")}<select id="bot-kind" value=${kinds.includes(form.kind) ? form.kind : kinds[0]} onChange=${(e) => set({ kind: e.target.value })}>
      ${kinds.map((k) => html`<option key=${k} value=${k}>${t(`bot.${k}`)}</option>`)}</select></label>`}
    <label class="field">${t("lobby.proxy")}<select value=${form.proxy} onChange=${(e) => set({ proxy: e.target.value })}>
      <option value="">${t("lobby.proxy_never")}</option>${[1, 2, 3, 5].map((n) => html`<option key=${n} value=${String(n)}>${t("lobby.proxy_after", { n })}</option>`)}</select></label>
    <label class="check"><input type="checkbox" checked=${form.private} onChange=${(e) => set({ private: e.target.checked })} /> ${t("lobby.private")}</label>
    ${app.account && html`<label class="check"><input type="checkbox" id="rated" checked=${Boolean(form.rated)} onChange=${(e) => set({ rated: e.target.checked })} /> ${t("account.rated_table")}</label>`}
    <button type="submit" class="primary" disabled=${busy || !app.up}>${t("lobby.create_button")}</button>
  </form>`;
}

// One of a game's options, by its type (welcome.game_info): a checkbox, a
// number within its bounds, a choice among its values, or a line of text.
function OptionField({ game, option: o, value, onChange }) {
  const label = optionLabel(game, o.name);
  if (o.type === "bool") {
    return html`<label class="check"><input type="checkbox" id=${o.name} checked=${Boolean(value)}
      onChange=${(e) => onChange(e.target.checked)} /> ${label}</label>`;
  }
  if (o.type === "choice") {
    return html`<label class="field">${label}<select id=${o.name} value=${String(value)}
      onChange=${(e) => onChange((o.choices || []).find((c) => String(c) === e.target.value))}>
      ${(o.choices || []).map((c) => html`<option key=${String(c)} value=${String(c)}>${String(c)}</option>`)}</select></label>`;
  }
  if (o.type === "int") {
    return html`<label class="field">${label}<input type="number" id=${o.name} value=${value} min=${o.min} max=${o.max} step="1"
      onInput=${(e) => { const n = Number(e.target.value); if (Number.isInteger(n)) onChange(n); }} /></label>`;
  }
  return html`<label class="field">${label}<input id=${o.name} value=${value ?? ""} onInput=${(e) => onChange(e.target.value)} /></label>`;
}

function ById() {
  const t = app.t;
  const [id, setId] = useState("");
  return html`<form class="byid" onSubmit=${(e) => { e.preventDefault(); if (id.trim()) location.hash = `#/t/${id.trim()}`; }}>
    <label class="field">${t("lobby.by_id")}<input value=${id} onInput=${(e) => setId(e.target.value)} placeholder="XAEha4bFs9xk" /></label>
    <button type="submit">${t("lobby.open")}</button></form>`;
}

export function Lobby() {
  const t = app.t;
  useEffect(() => {
    refresh();
    const id = setInterval(refresh, 3000);
    return () => clearInterval(id);
  }, [app.up]);
  const tables = [...app.listing].sort((a, b) => ["open", "running", "finished"].indexOf(a.status) - ["open", "running", "finished"].indexOf(b.status));
  return html`<main class="lobby page">
    <section class="intro">
      ${app.account ? null : html`<${NameBox} />`}
      <${AccountBox} />
      <p class="muted">${t("lobby.intro")}</p>
    </section>
    <div class="lobby-grid">
      <section aria-label=${t("lobby.tables")}>
        <${MyGames} />
        <h2>${t("lobby.tables")}</h2>
        ${app.listed ? (tables.length ? html`<ul class="tables" data-ready="1">${tables.map((x) => html`<${TableRow} key=${x.table} info=${x} />`)}</ul>`
          : html`<p class="muted" data-ready="1">${t("lobby.none")}</p>`) : html`<p class="muted">${t("lobby.loading")}</p>`}
        <${ById} />
        <${TournamentList} />
        <${OrganiseForm} />
      </section>
      <${CreateForm} />
    </div>
  </main>`;
}
