// Accounts on the page (PROTOCOL.md 19): sign up, sign in and out (the
// session token kept in this browser, and sent again after every
// reconnect), the person's sessions (where each is, sign out there or
// everywhere), the badge beside a signed-in seat's name (a bot mark, its
// promises kept and broken), and the leaderboard of each game.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { UNNAMED_GAME } from "./state/table.js";
import { app, dispatch, errorText, say, setName } from "./state.js";

const html = htm.bind(h);
const KEY = "oriente.session";

// Called on every welcome, before the tables are resumed (net.js): a
// signed-in page stays signed in across reloads and dropped connections.
export function restoreSession(net) {
  const token = localStorage.getItem(KEY);
  if (!token) return;
  net.request({ t: "sign_in", token }).then((ok) => dispatch({ type: "account", account: { ...ok.account, email: ok.email || null } }))
    .catch((err) => {
      if (err && String(err.code || "").startsWith("auth/")) {
        if (err.code === "auth/session_expired") say(errorText(err));
        forget();
      }
    });
}

function forget() {
  localStorage.removeItem(KEY);
  dispatch({ type: "account", account: null });
}

// Whatever request hears it, a session ended elsewhere (sign out
// everywhere, or expired) signs this page out too.
export function watchSession(net) {
  net.onFrame((frame) => {
    if (frame.t === "error" && frame.code === "auth/session_ended" && app.account) {
      say(errorText(frame));
      forget();
    }
  });
}

async function signIn(kind, name, password) {
  try {
    const ok = await app.net.request({ t: kind, name: name.trim(), password });
    localStorage.setItem(KEY, ok.token);
    dispatch({ type: "account", account: { ...ok.account, email: ok.email || null } });
    setName(ok.account.name);
    return true;
  } catch (err) {
    say(errorText(err));
    return false;
  }
}

async function signOut() {
  try { await app.net.request({ t: "sign_out" }); } catch (err) { /* signed out here either way */ }
  forget();
}

// A client as a person knows it: "Firefox 128 on Linux" from a browser's
// User-Agent; a program's own name (hello.client) as it is.
export function clientName(text) {
  if (!text) return "";
  const browser = [[/Edg\/(\d+)/, "Edge"], [/Firefox\/(\d+)/, "Firefox"], [/Chrome\/(\d+)/, "Chrome"],
    [/Version\/(\d+)[^ ]* .*Safari/, "Safari"]].find(([re]) => re.test(text));
  if (!browser || !text.startsWith("Mozilla/")) return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  const system = [[/Android/, "Android"], [/iPhone|iPad/, "iOS"], [/Windows/, "Windows"], [/Mac OS X/, "macOS"],
    [/CrOS/, "ChromeOS"], [/Linux/, "Linux"]].find(([re]) => re.test(text));
  const name = `${browser[1]} ${text.match(browser[0])[1]}`;
  return system ? `${name} · ${system[1]}` : name;
}

const when = (seconds) => new Date(seconds * 1000).toLocaleString(app.lang, { dateStyle: "medium", timeStyle: "short" });

// The person's live sessions: where and when each began and was last
// used, when it ends; sign out of one (revoke_token), or of every one.
function Sessions() {
  const t = app.t;
  const [rows, setRows] = useState(null);
  const load = () => app.net.request({ t: "sessions" }).then((ok) => setRows(ok.sessions))
    .catch((err) => { say(errorText(err)); setRows([]); });
  useEffect(() => { if (app.up) load(); }, [app.up]);
  const end = async (id) => {
    try { await app.net.request({ t: "revoke_token", token_id: id }); } catch (err) { say(errorText(err)); }
    load();
  };
  const everywhere = async () => {
    try {
      const ok = await app.net.request({ t: "sign_out_everywhere" });
      say(t("account.signed_out_everywhere", { n: ok.ended }));
      forget();
    } catch (err) { say(errorText(err)); }
  };
  const place = (address) => address || t("account.unknown_place");
  const mine = rows && rows.find((s) => s.current);
  const days = mine ? Math.round((mine.expires_at - mine.last_used_at) / 86400) : 30;
  return html`<section class="sessions" aria-label=${t("account.sessions_title")}>
    <h3>${t("account.sessions_title")}</h3>
    <p class="small muted">${t("account.sessions_note", { n: days })}</p>
    ${rows === null ? html`<p class="muted">…</p>` : html`<ul data-ready="1">${rows.map((s) => html`<li key=${s.id} class=${s.current ? "session current" : "session"}>
      <span>${t("account.session_began", { client: clientName(s.client) || t("account.unknown_client"), when: when(s.created_at), address: place(s.address) })}</span>
      ${s.current && html` <span class="tag">${t("account.this_browser")}</span>`}
      <br /><span class="small muted">${t("account.session_last", { when: when(s.last_used_at), address: place(s.last_address), ends: when(s.expires_at) })}</span>
      ${!s.current && html` <button type="button" class="end-session" onClick=${() => end(s.id)}>${t("account.session_end")}</button>`}
    </li>`)}</ul>`}
    <button type="button" id="sign-out-everywhere" onClick=${everywhere}>${t("account.sign_out_everywhere")}</button>
  </section>`;
}

// The person's e-mail address, to be told by mail when a turn-based table
// awaits them (PROTOCOL.md set_email): given here, confirmed by the link
// the server mails, turned off by the link in every such mail.
function Email() {
  const t = app.t;
  const email = app.account.email;
  const [address, setAddress] = useState(email ? email.address : "");
  const [busy, setBusy] = useState(false);
  const give = async (value) => {
    setBusy(true);
    try {
      const ok = await app.net.request({ t: "set_email", address: value });
      dispatch({ type: "account", account: { ...app.account, email: ok.email } });
      say(ok.email ? t("email.sent", { address: ok.email.address }) : t("email.removed"));
    } catch (err) { say(errorText(err)); }
    setBusy(false);
  };
  const state = !email ? "none" : !email.confirmed ? "unconfirmed" : email.notify ? "confirmed" : "unsubscribed";
  return html`<section class="email" aria-label=${t("email.title")}>
    <h3>${t("email.title")}</h3>
    <p class="small muted" id="email-state" data-state=${state}>${t(`email.state.${state}`, { address: email ? email.address : "" })}</p>
    <form onSubmit=${(e) => { e.preventDefault(); give(address.trim()); }}>
      <label class="field">${t("email.address")}<input id="email-address" type="email" maxlength="254" autocomplete="email"
        value=${address} onInput=${(e) => setAddress(e.target.value)} /></label>
      <button type="submit" id="email-save" disabled=${busy || !app.up || !address.trim()}>${t("email.save")}</button>
      ${email && html` <button type="button" id="email-remove" disabled=${busy || !app.up} onClick=${() => { setAddress(""); give(""); }}>${t("email.remove")}</button>`}
    </form>
    <p class="small muted">${t("email.note")}</p>
  </section>`;
}

// Signed out, the box asks only a password: the account's name is the
// lobby's one name field ("Your name"), so a person never sees two.
export function AccountBox() {
  const t = app.t;
  const name = app.name || "";
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  if (app.account) {
    return html`<div class="account" data-signed-in="1">
      <span>${t("account.signed_in", { name: app.account.name })}</span>
      <${Badge} account=${app.account} />
      <a href=${`#/leaderboard`}>${t("account.leaderboard")}</a>
      ${!app.account.bot && html`<button type="button" id="sessions" aria-expanded=${open} onClick=${() => setOpen(!open)}>${t("account.sessions")}</button>`}
      <button type="button" id="sign-out" onClick=${signOut}>${t("account.sign_out")}</button>
      ${open && !app.account.bot && html`<${Email} /><${Sessions} />`}</div>`;
  }
  const go = async (kind) => {
    setBusy(true);
    if (await signIn(kind, name, password)) setPassword("");
    setBusy(false);
  };
  return html`<form class="account" aria-label=${t("account.title")} onSubmit=${(e) => { e.preventDefault(); go("sign_in"); }}>
    <label class="field">${t("account.password")}<input id="account-password" type="password" maxlength="128"
      autocomplete="current-password" value=${password} onInput=${(e) => setPassword(e.target.value)} /></label>
    <button type="submit" id="sign-in" class="primary" disabled=${busy || !app.up || !name.trim()}>${t("account.sign_in")}</button>
    <button type="button" id="sign-up" disabled=${busy || !app.up || !name.trim()} onClick=${() => go("sign_up")}>${t("account.sign_up")}</button>
    <a href="#/leaderboard">${t("account.leaderboard")}</a>
    <span class="small muted">${t("account.why")}</span>
  </form>`;
}

// Beside a seat's name: a bot mark for a bot account, and the account's
// record of promises kept ✓ and broken ✗ over its finished games.
export function Badge({ account }) {
  if (!account) return null;
  const t = app.t;
  const rep = account.reputation || { kept: 0, broken: 0, released: 0 };
  return html`<span class="acct">
    ${account.bot && html`<span class="badge bot" title=${t("account.bot_aria")}>${t("account.bot")}</span>`}
    <span class="badge rep" title=${t("account.reputation_aria", rep)}>✓${rep.kept} ✗${rep.broken}</span></span>`;
}

export function LeaderboardPage({ game }) {
  const t = app.t;
  const games = (app.net && app.net.welcome && app.net.welcome.games) || [UNNAMED_GAME];
  const shown = games.includes(game) ? game : games[0];
  const [rows, setRows] = useState(null);
  useEffect(() => {
    if (!app.up) return;
    setRows(null);
    app.net.request({ t: "leaderboard", game: shown, limit: 100 }).then((ok) => setRows(ok.leaderboard))
      .catch((err) => { say(errorText(err)); setRows([]); });
  }, [shown, app.up]);
  return html`<main class="page leaderboard">
    <h1>${t("account.leaderboard")}</h1>
    <p>${games.map((g) => html`<a key=${g} class=${`button${g === shown ? " primary" : ""}`} href=${`#/leaderboard/${g}`}>${t(`game.${g}`)}</a> `)}</p>
    ${rows === null ? html`<p class="muted">…</p>` : rows.length === 0 ? html`<p class="muted" data-ready="1">${t("account.no_ratings")}</p>`
      : html`<table class="board" data-ready="1"><thead><tr><th>#</th><th>${t("account.name")}</th><th>${t("account.rating")}</th>
          <th>${t("account.games")}</th></tr></thead><tbody>
        ${rows.map((r) => html`<tr key=${r.id}><td>${r.rank}</td><td>${r.name} ${r.bot && html`<span class="badge bot">${t("account.bot")}</span>`}</td>
          <td>${r.rating.toFixed(1)}${r.provisional ? "?" : ""}</td><td>${r.games}</td></tr>`)}</tbody></table>`}
    <p class="small muted">${t("account.rating_note")}</p>
  </main>`;
}
