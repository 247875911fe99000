// The table page, whatever the game: its head (name, game, seat, waiting
// for players), the game's own components (games.js: its stage, decision
// and end, or the generic ones), the story so far and the chat, and any
// panels the game adds beside them (Oriente's deals).
import { h } from "preact";
import htm from "htm";
import { useEffect, useRef, useState } from "preact/hooks";
import { seatLabel } from "./common.js";
import { PhoneBar } from "./phone.js";
import { gameName, gameUi } from "./games.js";
import { chat, fillWithBots, joinTable, lineOf } from "./live.js";
import { waitsOnMe } from "./state/table.js";
import { app, botKinds, errorText } from "./state.js";

const html = htm.bind(h);

// -- the story and the chat ------------------------------------------------------------

export function Feed({ ts, events }) {
  const ref = useRef(null);
  const stick = useRef(true);
  const list = events || ts.events;
  useEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });
  const onScroll = () => {
    const el = ref.current;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  const shown = list.filter((e) => e.type !== "TableFinished");
  const last = shown.length ? lineOf(ts, shown[shown.length - 1]) : "";
  return html`<div class="feed" ref=${ref} onScroll=${onScroll} tabindex="0" aria-label=${app.t("feed.aria")}>
    <ol>
      ${shown.map((e) => html`<li key=${e.seq} class=${e.type === "Chat" ? "chat" : e.type === "DealProposed" || e.type === "DealExecuted" ? "deal" : ""}>${lineOf(ts, e)}</li>`)}
    </ol>
    <div class="sr-only" aria-live="polite">${last}</div>
  </div>`;
}

function ChatBox({ ts }) {
  const [text, setText] = useState("");
  const send = async (ev) => {
    ev.preventDefault();
    const value = text.trim();
    if (value && (await chat(ts, value))) setText("");
  };
  if (!ts.seated) return html`<p class="small muted">${app.t("chat.spectator")}</p>`;
  return html`<form class="chatbox" onSubmit=${send}>
    <label class="sr-only" for="chat-input">${app.t("chat.label")}</label>
    <input id="chat-input" maxlength="500" value=${text} onInput=${(e) => setText(e.target.value)} placeholder=${app.t("chat.placeholder")} />
    <button type="submit">${app.t("chat.send")}</button>
  </form>`;
}

export function TablePage({ ts }) {
  const t = app.t;
  const [tab, setTab] = useState("feed");
  useEffect(() => {
    const onKey = (ev) => {
      if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (/^[1-9]$/.test(ev.key)) {
        const button = document.querySelector(`.decision .choices button[data-key="${ev.key}"]`);
        if (button && !button.disabled) { button.click(); ev.preventDefault(); }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (ts.missing) {
    return html`<main class="page"><p class="error" role="alert">${errorText(ts.missing)}</p>
      ${ts.missing.code === "table/unknown" && html`<p>${t("table.missing_replay")} <a href=${`#/r/${ts.id}`}>${t("result.replay")}</a></p>`}
      <p><a href="#/">${t("nav.lobby")}</a></p></main>`;
  }
  if (!ts.loaded) return html`<main class="page"><p>${t("table.loading")}</p></main>`;
  const info = ts.info;
  const view = ts.view;
  const settings = info.settings;
  const { Stage, Decision, Result, panels = [] } = gameUi(ts.game);
  const panel = panels.find((x) => x.key === tab);
  return html`<main class="table-page">
    <div class="table-head">
      <h1>${settings.name || t("table.untitled")} <span class="tag game">${gameName(ts.game)}</span> <span class="muted small">${ts.id}</span></h1>
      <span class="muted">${ts.seated ? t("table.you_are", { name: seatLabel(ts, ts.you) }) : t("table.spectating")}</span>
      ${settings.seeded && html`<span class="tag seeded" title=${t("table.seeded_help")}>${t("table.seeded")}</span>`}
      ${info.status === "open" && html`<${Waiting} ts=${ts} />`}
    </div>
    <div class="table-main">
      <div class="stage">
        <${Stage} ts=${ts} view=${view} />
        <${Result} ts=${ts} view=${view} />
      </div>
      <aside class="side">
        <${Decision} ts=${ts} />
        ${panels.length > 0 && html`<div class="tabs" role="tablist">
          ${[{ key: "feed" }, ...panels].map((x) => {
            const count = x.count ? x.count(ts) : 0;
            return html`<button type="button" role="tab" aria-selected=${tab === x.key} class=${tab === x.key ? "on" : ""} onClick=${() => setTab(x.key)}>
              ${t(`tab.${x.key}`)}${count ? ` (${count})` : ""}</button>`;
          })}
        </div>`}
        ${panel ? html`<${panel.Panel} ts=${ts} />` : html`<${Feed} ts=${ts} /><${ChatBox} ts=${ts} />`}
      </aside>
    </div>
    <${PhoneBar} />
  </main>`;
}

function Waiting({ ts }) {
  const t = app.t;
  const info = ts.info;
  const free = info.seats.filter((s) => s === null).length;
  return html`<div class="waiting">
    <span>${t("table.waiting", { n: free, seats: info.settings.seats })}</span>
    ${ts.seated && free > 0 && botKinds(info.game).length > 0 && html`<button type="button" onClick=${() => fillWithBots(ts)}>${t("table.fill_bots")}</button>`}
    ${!ts.seated && free > 0 && html`<button type="button" class="primary" onClick=${() => joinTable(ts.id)}>${t("lobby.join")}</button>`}
  </div>`;
}

export function rememberTitle() {
  let waiting = false;
  for (const ts of app.tables.values()) if (waitsOnMe(ts)) waiting = true;
  document.title = waiting ? `● ${app.t("title.your_turn")} — Oriente` : "Oriente";
  return waiting;
}
