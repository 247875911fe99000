// What every game's table screen shares: a seat's label for this viewer
// and the countdown of the open decision.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { seatName } from "./live.js";
import { app } from "./state.js";
import { timeLeft } from "./timeleft.js";

const html = htm.bind(h);

export function seatLabel(ts, s) {
  return s === ts.you ? app.t("seat.you_named", { name: seatName(ts, s) }) : seatName(ts, s);
}

const fmt = (ms) => timeLeft(ms, app.t);

// The time left on the open decision, in one label. For the seat that
// decides (`bank`), its own time comes first ("0:25 + bank 2:00": the
// deadline counts both, PROTOCOL.md prompt); once that is spent the bank
// runs, and the label says so and warns ("bank 1:58"), rather than a
// figure that contradicts its own note.
export function Countdown({ prompt, at, bank = false }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(id);
  }, []);
  if (!prompt || prompt.deadline_ms === undefined) return null;
  const left = prompt.deadline_ms - (performance.now() - at);
  const reserve = bank && prompt.bank_ms > 0 ? prompt.bank_ms : 0;
  const own = left - reserve;
  if (reserve && own > 0) {
    return html`<span class=${`countdown${own < 10000 ? " soon" : ""}`} role="timer"
        aria-label=${app.t("decision.time_and_bank", { time: fmt(own), bank: fmt(reserve) })}>
      ${fmt(own)} <span class="muted">${app.t("decision.plus_bank", { time: fmt(reserve) })}</span></span>`;
  }
  if (reserve) {
    return html`<span class="countdown urgent bank-running" role="timer" aria-label=${app.t("decision.bank_running", { time: fmt(left) })}>
      ${app.t("decision.bank_running", { time: fmt(left) })}
      <span class="bank-warning" role="alert">${app.t("decision.bank_warning")}</span></span>`;
  }
  return html`<span class=${`countdown${left < 10000 ? " urgent" : ""}`} role="timer" aria-label=${app.t("decision.time_left", { time: fmt(left) })}>
    ${fmt(left)}</span>`;
}
