// The Oriente web client: boots the catalogue, the games' reference data
// and the connection, then draws the lobby, a table or a replay from the address.
import { h, render } from "preact";
import htm from "htm";
import { useEffect } from "preact/hooks";
import { LeaderboardPage, restoreSession, watchSession } from "./account.js";
import { LANGS, loadCatalogue, preferredLang, translator } from "./i18n.js";
import { enterTable, leaveTable, onFrame } from "./live.js";
import { Lobby } from "./lobby.js";
import { Net, serverUrl } from "./net.js";
import { ReplayPage } from "./replay.js";
import { app, dispatch, useApp } from "./state.js";
import { gameUi, loadGames, servedGames } from "./games.js";
import { notifyTurn, notifyWanted, setNotify } from "./notify.js";
import { rememberTitle, TablePage } from "./table.js";
import { waitsOnMe } from "./state/table.js";
import { TournamentPage } from "./tournament.js";

const html = htm.bind(h);

function parseRoute() {
  const hash = location.hash.replace(/^#/, "");
  let m = /^\/t\/([A-Za-z0-9_-]+)$/.exec(hash);
  if (m) return { page: "table", id: m[1] };
  m = /^\/r\/([A-Za-z0-9_-]+)(?:\?([\w=&]*))?$/.exec(hash);
  if (m) {
    const q = new URLSearchParams(m[2] || ""); // ?as=VIEWER&seq=N: a replay seen by VIEWER, at the step of event N
    return { page: "replay", id: m[1], as: q.get("as") || null, seq: q.has("seq") ? Number(q.get("seq")) : null };
  }
  m = /^\/tournament\/([A-Za-z0-9_-]+)$/.exec(hash);
  if (m) return { page: "tournament", id: m[1] };
  m = /^\/leaderboard(?:\/(\w+))?$/.exec(hash);
  if (m) return { page: "leaderboard", game: m[1] || null };
  return { page: "lobby" };
}

function route() {
  const next = parseRoute();
  const prev = app.route;
  if (prev.page === "table" && (next.page !== "table" || next.id !== prev.id)) leaveTable(prev.id);
  dispatch({ type: "route", route: next });
  if (next.page === "table") enterTable(next.id);
  window.scrollTo(0, 0);
}

let langAsked = 0; // the latest setLang: an earlier one whose words arrive later is dropped
let langChosen = null; // the language last asked for, which app.lang becomes once its words arrive

async function setLang(lang) {
  // Kept at once: a person who picks a language and goes on before its
  // words have loaded (a link, a reload) still finds it chosen.
  localStorage.setItem("oriente.lang", lang);
  langChosen = lang;
  const asked = ++langAsked;
  // The words of every game the server plays (once it has said which).
  const games = servedGames();
  const [cat, en] = await Promise.all([loadCatalogue(lang, games), loadCatalogue("en", games)]);
  if (asked !== langAsked) return;
  dispatch({ type: "lang", lang, cat, en, t: translator(cat, en) });
  document.documentElement.lang = lang;
}

function setSound(on) {
  localStorage.setItem("oriente.sound", on ? "on" : "off");
  dispatch({ type: "sound", on });
}

const close = () => dispatch({ type: "dialog", dialog: null });

let beeped = null;
function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
  } catch (e) { /* no audio: the title still says it */ }
}

// The game on screen (in the lobby: the first the server plays), whose reference the header opens.
function currentGame() {
  const r = app.route;
  const ts = r.page === "table" ? app.tables.get(r.id) : null;
  return ts ? ts.game : r.page === "replay" && app.replayGame ? app.replayGame : servedGames()[0];
}

const hasReference = (game) => Boolean(gameUi(game).Reference && app.refs[game]);

function openRules() {
  const game = currentGame();
  if (hasReference(game)) dispatch({ type: "dialog", dialog: { kind: "reference", game, focus: null } });
}

function Header() {
  const t = app.t;
  return html`<header class="top">
    <a class="brand" href="#/">Oriente</a>
    <nav>
      <a href="#/">${t("nav.lobby")}</a>
      ${hasReference(currentGame()) && html`<button type="button" onClick=${() => openRules()} accesskey="r">${t("nav.cards")}</button>`}
      <label class="sr-only" for="lang">${t("nav.language")}</label>
      <select id="lang" value=${app.lang} onChange=${(e) => setLang(e.target.value)} aria-label=${t("nav.language")}>
        ${LANGS.map((l) => html`<option key=${l} value=${l}>${{ en: "English", de: "Deutsch", fr: "Français" }[l]}</option>`)}
      </select>
      <label class="check small"><input type="checkbox" checked=${app.sound}
        onChange=${(e) => setSound(e.target.checked)} /> ${t("nav.sound")}</label>
      ${typeof Notification !== "undefined" && html`<label class="check small"><input type="checkbox" id="notify" checked=${notifyWanted()}
        onChange=${async (e) => { const on = await setNotify(e.target.checked); e.target.checked = on; dispatch({ type: "sound", on: app.sound }); }} /> ${t("nav.notify")}</label>`}
      <span class=${`conn ${app.up ? "up" : "down"}`} role="status">${app.up ? t("conn.up") : t("conn.down")}</span>
    </nav>
  </header>`;
}

function Dialog() {
  const d = app.dialog;
  const t = app.t;
  useEffect(() => {
    if (!d) return undefined;
    const el = document.querySelector(".dialog .close");
    if (el) el.focus();
    if (d.focus) { const target = document.getElementById(`ref-${d.focus}`); if (target) target.scrollIntoView({ block: "center" }); }
    const onKey = (ev) => { if (ev.key === "Escape") close(); };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [d]);
  if (!d) return null;
  return html`<div class="overlay" onClick=${(e) => { if (e.target.classList.contains("overlay")) close(); }}>
    <div class="dialog" role="dialog" aria-modal="true" aria-label=${t("nav.cards")}>
      <div class="dialog-head"><h2>${t(gameUi(d.game).referenceTitle || `${d.game}.ref.title`)}</h2><button type="button" class="close" onClick=${close}>${t("dialog.close")}</button></div>
      <${gameUi(d.game).Reference} focus=${d.focus} />
    </div>
  </div>`;
}

function App() {
  useApp();
  if (!app.ready) return html`<p class="page">…</p>`;
  const waiting = rememberTitle();
  const r = app.route;
  let key = null;
  let awaiting = null;
  for (const ts of app.tables.values()) if (waitsOnMe(ts)) { key = `${ts.id}/${ts.prompt.id}/${ts.prompt.pivot}`; awaiting = ts; }
  if (waiting && key !== beeped && app.sound) beep();
  if (awaiting && key !== beeped) notifyTurn(key, awaiting.id, awaiting.info && awaiting.info.settings ? awaiting.info.settings.name : "");
  // A deal offered to one of this page's seats awaits its answer: told once per deal.
  for (const ts of app.tables.values()) {
    if (!ts.seated || !ts.prompt) continue;
    for (const c of ts.prompt.legal || []) {
      if (c.type === "AcceptDeal") notifyTurn(`${ts.id}/offer/${c.deal}`, ts.id, ts.info && ts.info.settings ? ts.info.settings.name : "", "notify.offer_body");
    }
  }
  beeped = key;
  let page;
  // A table or a replay is drawn once the page has the folders of the games the server plays.
  if ((r.page === "table" || r.page === "replay") && !app.games) page = html`<p class="page">…</p>`;
  else if (r.page === "table") page = html`<${TablePage} ts=${app.tables.get(r.id)} />`;
  else if (r.page === "replay") page = html`<${ReplayPage} id=${r.id} as=${r.as} seq=${r.seq} />`;
  else if (r.page === "leaderboard") page = html`<${LeaderboardPage} game=${r.game} />`;
  else if (r.page === "tournament") page = html`<${TournamentPage} id=${r.id} />`;
  else page = html`<${Lobby} />`;
  return html`<div class="app">
    <a class="skip" href="#main">${app.t("nav.skip")}</a>
    <${Header} />
    ${!app.up && html`<div class="banner" role="alert">${app.t("conn.banner")}</div>`}
    ${app.error && html`<div class="toast" role="alert">${app.error}</div>`}
    <div id="main">${page}</div>
    <${Dialog} />
  </div>`;
}

let wordsFor = null; // the games whose words the catalogue holds

async function boot() {
  render(html`<${App} />`, document.getElementById("app"));
  const lang = preferredLang();
  const net = new Net(serverUrl());
  dispatch({ type: "booted", net });
  await setLang(lang);
  net.beforeRestore = restoreSession;
  watchSession(net);
  net.onFrame(onFrame);
  net.onStatus((up) => {
    dispatch({ type: "up", up });
    if (up) {
      // The server says which games it plays: their words join the catalogue, their folders the page.
      const games = servedGames().join(" ");
      // The language asked for, not app.lang: that is still the first
      // default while the chosen language's words are on their way.
      if (games !== wordsFor) { wordsFor = games; setLang(langChosen || app.lang); loadGames(servedGames()); }
      for (const ts of app.tables.values()) if (!ts.loaded) { dispatch({ type: "tables/forget", table: ts.id }); net.unsubscribe(ts.id); }
      if (app.route.page === "table") route();
    }
  });
  window.addEventListener("hashchange", route);
  dispatch({ type: "ready" });
  dispatch({ type: "route", route: { page: "none" } });
  net.connect();
  route();
}

boot();
