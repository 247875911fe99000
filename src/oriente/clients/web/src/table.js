// The table page, whatever the game: its head (name, game, seat, waiting
// for players), the game's own components (games.js: its stage, decision
// and end, or the generic ones), the story so far and the chat, and any
// panels the game adds beside them (Oriente's deals). The decision comes
// first in the page's order (Tab reaches it before the table's cards; the
// layout still draws it beside the table), and at the end the ranking
// comes before the table.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { seatLabel } from "./common.js";
import { PhoneBar } from "./phone.js";
import { gameName, gameUi } from "./games.js";
import { isChoiceKey } from "./keys.js";
import { KindTag } from "./lobby.js";
import { fillWithBots, joinTable } from "./live.js";
import { ChatPane, Feed } from "./log.js";
import { waitsOnMe } from "./state/table.js";
import { TableSettings } from "./settings.js";
import { app, botKinds, errorText } from "./state.js";

const html = htm.bind(h);

export function TablePage({ ts }) {
  const t = app.t;
  const [tab, setTab] = useState("feed");
  useEffect(() => {
    const onKey = (ev) => {
      if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (isChoiceKey(ev.key)) {
        const button = document.querySelector(`.decision .choices button[data-key="${ev.key.toLowerCase()}"]`);
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
      <h1>${settings.name || t("table.untitled")} <span class="tag game">${gameName(ts.game)}</span> <${KindTag} info=${ts.info} /> <span class="muted small">${ts.id}</span></h1>
      <span class="muted">${ts.seated ? t("table.you_are", { name: seatLabel(ts, ts.you) }) : t("table.spectating")}</span>
      ${settings.seeded && html`<span class="tag seeded" title=${t("table.seeded_help")}>${t("table.seeded")}</span>`}
      ${info.status === "open" && html`<${Waiting} ts=${ts} />`}
      ${info.status !== "finished" && html`<${TableSettings} ts=${ts} />`}
    </div>
    <div class="table-main decision-first">
      <aside class="side">
        <${Decision} ts=${ts} />
        ${panels.length > 0 && html`<div class="tabs" role="tablist">
          ${[{ key: "feed" }, ...panels].map((x) => {
            const count = x.count ? x.count(ts) : 0;
            return html`<button type="button" role="tab" aria-selected=${tab === x.key} class=${tab === x.key ? "on" : ""} onClick=${() => setTab(x.key)}>
              ${t(`tab.${x.key}`)}${count ? ` (${count})` : ""}</button>`;
          })}
        </div>`}
        ${panel ? html`<${panel.Panel} ts=${ts} />` : html`<${Feed} ts=${ts} /><${ChatPane} ts=${ts} />`}
      </aside>
      <div class="stage">
        <${Result} ts=${ts} view=${view} />
        <${Stage} ts=${ts} view=${view} />
      </div>
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
