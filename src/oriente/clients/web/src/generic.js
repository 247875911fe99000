// The screen of a game that brings none of its own (no games/NAME folder):
// the view's fields as they are, the open decision's legal commands as
// buttons, and the end's ranks and scores. Words come from the game's own
// catalogue where it has them ("GAME.topic.TOPIC", "GAME.choice.TYPE" with
// the command's fields, "GAME.field.FIELD", "GAME.silence.TOPIC"), else
// the server's own names; the story is GenericNarrator's (narrate.js).
import { h } from "preact";
import htm from "htm";
import { Countdown, seatLabel } from "./common.js";
import { act, goToRematch } from "./live.js";
import { fill } from "./i18n.js";
import { choiceKey } from "./keys.js";
import { answerKey } from "./state/table.js";
import { app } from "./state.js";
import { CardsCheck } from "./verify.js";

const html = htm.bind(h);

// The catalogue's words for `key`, or `otherwise` when it has none.
function word(key, otherwise, args) {
  const text = app.t(key, args);
  return text === key ? otherwise : text;
}

function shown(v) {
  if (v === null || v === undefined) return "?";
  if (Array.isArray(v)) return v.map(shown).join(", ");
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

// A command as a button's words: the game's template for its type, filled
// with its fields, or the type and fields as the server sent them.
export function commandLabel(game, cmd) {
  const fields = Object.entries(cmd).filter(([k]) => k !== "type" && k !== "decision");
  const plain = fields.length ? `${cmd.type} ${fields.map(([k, v]) => `${k}=${shown(v)}`).join(", ")}` : cmd.type;
  const template = word(`${game}.choice.${cmd.type}`, null);
  return template === null ? plain : fill(template, Object.fromEntries(fields.map(([k, v]) => [k, shown(v)])));
}

const UNSHOWN = new Set(["decision", "viewer", "result"]);

export function GenericStage({ ts, view }) {
  const t = app.t;
  if (!view) return html`<div class="board"><p>${t("board.waiting")}</p></div>`;
  const fields = Object.entries(view).filter(([k]) => !UNSHOWN.has(k));
  return html`<div class="board generic" aria-label=${t("board.aria")}>
    <dl class="view">${fields.map(([k, v]) => html`<div key=${k} data-field=${k}><dt>${word(`${ts.game}.field.${k}`, k)}</dt><dd>${shown(v)}</dd></div>`)}</dl>
  </div>`;
}

export function GenericDecision({ ts }) {
  const t = app.t;
  const p = ts.prompt;
  if (!p) {
    const status = ts.info ? ts.info.status : "open";
    return html`<section class="decision idle" aria-label=${t("decision.aria")}>
      <p>${status === "open" ? t("decision.waiting_players") : status === "finished" ? t("decision.over") : t("decision.none")}</p></section>`;
  }
  const mine = ts.seated && p.pivot === ts.you;
  const answers = ts.seated ? (p.legal || []).filter((c) => c && c.decision === p.id) : [];
  const who = p.pivot === null || p.pivot === undefined ? t("decision.window")
    : mine ? t("decision.yours") : t("decision.waiting", { name: seatLabel(ts, p.pivot) });
  const sent = ts.sentFor === answerKey(ts);
  return html`<section class=${`decision${mine ? " mine" : ""}`} aria-label=${t("decision.aria")}>
    <h2>${word(`${ts.game}.topic.${p.topic}`, p.topic || "")} <span class="muted small">${p.rule || ""}</span></h2>
    <p class="who">${who} <${Countdown} prompt=${p} at=${ts.promptAt} bank=${mine} /></p>
    ${p.sealed && html`<p class="small sealed">${t("decision.sealed", { answer: commandLabel(ts.game, p.sealed) })}</p>`}
    ${!mine && answers.length > 0 && html`<p class="small note">${t("decision.early")}</p>`}
    ${answers.length > 0 && html`<div class="choices" role="group" aria-label=${t("decision.choices")}>
      ${answers.map((c, i) => html`<button type="button" key=${JSON.stringify(c)} class="choice" data-key=${choiceKey(i)}
          disabled=${sent && mine} onClick=${() => act(ts, c)}>
        ${choiceKey(i) && html`<kbd aria-hidden="true">${choiceKey(i)}</kbd>`}<span>${commandLabel(ts.game, c)}</span></button>`)}
    </div>`}
    ${p.silence && html`<p class="small muted">${t("decision.silence", { what: word(`${ts.game}.silence.${p.topic}`, p.silence) })}</p>`}
  </section>`;
}

export function GenericResult({ ts, view }) {
  const t = app.t;
  const r = (view && view.result) || (ts.info && ts.info.result);
  if (!r) return null;
  const ranks = Array.isArray(r.ranks) ? r.ranks : [];
  const order = ranks.map((_, s) => s).sort((a, b) => ranks[a] - ranks[b] || a - b);
  return html`<section class="result" aria-label=${t("result.aria")}>
    <h2>${t("result.title")}</h2>
    ${order.length > 0 && html`<table>
      <thead><tr><th>${t("result.rank")}</th><th>${t("result.player")}</th>${Array.isArray(r.scores) && html`<th>${t("result.score")}</th>`}</tr></thead>
      <tbody>${order.map((s) => html`<tr key=${s} class=${s === ts.you ? "me" : ""}><td>${ranks[s]}</td><td>${seatLabel(ts, s)}</td>
        ${Array.isArray(r.scores) && html`<td>${shown(r.scores[s])}</td>`}</tr>`)}</tbody>
    </table>`}
    <p class="actions">
      ${ts.seated ? html`<button type="button" class="primary" onClick=${() => goToRematch(ts)}>
          ${t(ts.rematch ? "result.join_rematch" : "result.rematch")}</button>`
        : ts.rematch && html`<a class="button primary" href=${`#/t/${ts.rematch.table}`}>${t("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${ts.id}`}>${t("result.replay")}</a>
      <a class="button" href="#/">${t("nav.lobby")}</a>
    </p>
    <${CardsCheck} ts=${ts} />
  </section>`;
}
