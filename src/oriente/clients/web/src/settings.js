// A person's settings at a table, kept in this browser: the pace the table
// is shown at (pace.js) and the rounds to pass at once. The auto-pass is
// unconditional, as the rules ask of any client (docs/rules.md R10.2d): it
// passes every round of a chosen kind, whatever the seat's hidden card,
// exactly like the terminal's /auto; the kinds are the game's (its folder's
// `autoPass`, e.g. Oriente's privilege, support and revolution rounds).
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { gameUi } from "./games.js";
import { act } from "./live.js";
import { GAPS, paceGap, setPaceGap } from "./pace.js";
import { answerKey, waitsOnMe } from "./state/table.js";
import { app } from "./state.js";

const html = htm.bind(h);
const AUTO = "oriente.autopass";

// The rounds (topics) this browser passes at once.
export function autoTopics() {
  try { return new Set(JSON.parse(localStorage.getItem(AUTO) || "[]")); } catch (e) { return new Set(); }
}

const listeners = new Set(); // the settings panels on screen, told of a change made elsewhere

function setAutoTopics(topics) {
  localStorage.setItem(AUTO, JSON.stringify([...topics].sort()));
  for (const fn of listeners) fn(new Set(topics));
}

// Pass every round of `topic` at once (on) or not (off), and pass the one on screen now.
export function setAutoTopic(topic, on) {
  const next = autoTopics();
  if (on) next.add(topic); else next.delete(topic);
  setAutoTopics(next);
  if (on) for (const ts of app.tables.values()) autoAnswer(ts);
}

// The decision on screen, passed if its round is one the person chose to
// pass (called once the table is drawn up to date: never on a stale prompt).
export function autoAnswer(ts) {
  if (!ts || !ts.seated || !ts.prompt) return;
  const p = ts.prompt;
  // A support round's window: the seat may declare early, sealed, so that the window may close early (R10.2b1).
  const early = p.kind === "window" && (p.early || []).includes(ts.you);
  if (!waitsOnMe(ts) && !early) return;
  const kind = p.topic === "negotiation" ? "support" : p.topic;
  if (!autoTopics().has(kind) || p.sealed || ts.sentFor === answerKey(ts)) return;
  const pass = (p.legal || []).find((c) => c.type === "Pass" && c.decision === p.id);
  if (pass) act(ts, pass);
}

export function TableSettings({ ts }) {
  const t = app.t;
  const [gap, setGap] = useState(paceGap());
  const [auto, setAuto] = useState(autoTopics());
  const kinds = gameUi(ts.game).autoPass || [];
  useEffect(() => { listeners.add(setAuto); return () => listeners.delete(setAuto); }, []);
  const toggle = (topic, on) => setAutoTopic(topic, on);
  return html`<details class="table-settings">
    <summary>${t("settings.title")}</summary>
    <label class="field inline">${t("settings.pace")}
      <select id="pace" value=${String(gap)} onChange=${(e) => { const ms = Number(e.target.value); setPaceGap(ms); setGap(ms); }}>
        ${GAPS.map((ms) => html`<option key=${ms} value=${String(ms)}>${ms === 0 ? t("settings.pace_off") : t("settings.pace_s", { s: (ms / 1000).toFixed(1) })}</option>`)}
      </select></label>
    ${ts.seated && kinds.length > 0 && html`<fieldset class="autopass"><legend>${t("settings.autopass")}</legend>
      ${kinds.map((topic) => html`<label key=${topic} class="check small"><input type="checkbox" name=${`auto-${topic}`}
        checked=${auto.has(topic)} onChange=${(e) => toggle(topic, e.target.checked)} /> ${t(`settings.auto.${topic}`)}</label>`)}
      <p class="small muted">${t("settings.autopass_help")}</p>
    </fieldset>`}
  </details>`;
}
