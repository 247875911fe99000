// What every game's table screen shares: a seat's label for this viewer
// and the countdown of the open decision.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { seatName } from "./live.js";
import { app } from "./state.js";

const html = htm.bind(h);

export function seatLabel(ts, s) {
  return s === ts.you ? app.t("seat.you_named", { name: seatName(ts, s) }) : seatName(ts, s);
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function Countdown({ prompt, at, bank = false }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(id);
  }, []);
  if (!prompt || prompt.deadline_ms === undefined) return null;
  const left = prompt.deadline_ms - (performance.now() - at);
  const urgent = left < 10000;
  return html`<span class=${`countdown${urgent ? " urgent" : ""}`} role="timer" aria-label=${app.t("decision.time_left", { time: fmt(left) })}>
    ${fmt(left)}${bank && prompt.bank_ms ? html` <span class="muted">${app.t("decision.bank", { time: fmt(prompt.bank_ms) })}</span>` : ""}
  </span>`;
}

