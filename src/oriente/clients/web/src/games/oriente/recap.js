// A season's recap, shown when it ends: who fulfilled what, who claimed
// privilege over whom, who fought whom and how it went, and every score
// pile before and after. What happened is read from the story's events
// (so a reload tells it again); the piles from the views this page drew
// at the season's start and end, which it keeps in the browser for the
// table (a reload keeps them too). A page that never drew a season's
// start says so rather than guessing.
import { h } from "preact";
import htm from "htm";
import { useState } from "preact/hooks";
import { seatLabel } from "../../common.js";
import { app } from "../../state.js";
import { cardRef } from "./cards.js";

const html = htm.bind(h);
const KEY = "oriente.piles.";

function piles(view) {
  return view && Array.isArray(view.seats)
    ? view.seats.map((s) => (s.pile || []).reduce((sum, c) => sum + (cardRef().value(c) || 0), 0)) : null;
}

function remembered(table) {
  try { return JSON.parse(localStorage.getItem(KEY + table) || "{}"); } catch (e) { return {}; }
}

// Each step drawn (live.js): the piles at a season's start and end, kept.
export function observe(ts) {
  const fresh = ts.fresh || [];
  const began = fresh.find((e) => e.type === "SeasonBegan");
  const ended = fresh.find((e) => e.type === "SeasonEnded");
  if (!began && !ended) return;
  const now = piles(ts.view);
  if (!now) return;
  const kept = remembered(ts.id);
  if (ended) kept[`after${ended.season}`] = now;
  if (began) kept[`before${began.season}`] = now;
  try { localStorage.setItem(KEY + ts.id, JSON.stringify(kept)); } catch (e) { /* full: the recap says it does not know */ }
}

// What season `n` was, from the events: fulfilments, claims, fights, revolutions, deals.
export function seasonOf(events, n) {
  const start = events.findIndex((e) => e.type === "SeasonBegan" && e.season === n);
  if (start < 0) return null;
  let end = events.findIndex((e, i) => i > start && (e.type === "SeasonEnded" || e.type === "GameEnded"));
  if (end < 0) end = events.length;
  const span = events.slice(start, end);
  return {
    season: n,
    fulfilled: span.filter((e) => e.type === "Fulfilled"),
    claims: span.filter((e) => e.type === "Announced" && e.claim),
    fights: span.filter((e) => e.type === "FightResolved"),
    revolutions: span.filter((e) => e.type === "RevolutionResolved"),
    deals: span.filter((e) => e.type === "DealExecuted").length,
  };
}

// The season whose recap is open (the last one ended), and whether it is
// still news: open through the next season's first announcements and its
// first fight's bargaining, until that fight is decided (or the person
// closes it), so that a person has time to read it at any pace.
export function lastEnded(events) {
  let at = -1;
  for (let i = events.length - 1; i >= 0; i -= 1) if (events[i].type === "SeasonEnded") { at = i; break; }
  if (at < 0) return null;
  const fresh = !events.slice(at + 1).some((e) => e.type === "FightResolved" || e.type === "GameEnded");
  return { season: events[at].season, fresh };
}

export function SeasonRecap({ ts, actionText }) {
  const t = app.t;
  const [shut, setShut] = useState(null); // the season whose recap the person closed
  const [opened, setOpened] = useState(null); // the season whose recap the person opened again
  const last = lastEnded(ts.events);
  if (!last || (ts.info && ts.info.status === "finished")) return null;
  const n = last.season;
  const open = opened === n || (last.fresh && shut !== n);
  if (!open) {
    return html`<p class="recap-again"><button type="button" class="link" onClick=${() => setOpened(n)}>${t("recap.open", { n })}</button></p>`;
  }
  const s = seasonOf(ts.events, n);
  const kept = remembered(ts.id);
  const before = kept[`before${n}`] || (n > 1 ? kept[`after${n - 1}`] : null) || null;
  const after = kept[`after${n}`] || (ts.view && ts.view.season === n + 1 ? piles(ts.view) : null);
  const seatsN = ts.view ? ts.view.seats.length : 0;
  const who = (x) => seatLabel(ts, x);
  const name = (c) => (c === null || c === undefined ? t("card.facedown") : cardRef().name(c, app.lang));
  return html`<section class="recap" aria-label=${t("recap.aria", { n })} role="region">
    <div class="recap-head"><h2>${t("recap.title", { n })}</h2>
      <button type="button" class="close" onClick=${() => { setShut(n); setOpened(null); }}>${t("dialog.close")}</button></div>
    <div class="recap-body">
      <div>
        <h3>${t("recap.fulfilled")}</h3>
        ${s && s.fulfilled.length ? html`<ul>${s.fulfilled.map((e, i) => html`<li key=${i}>✔ ${who(e.seat)}: ${actionText(e.action)}</li>`)}</ul>`
          : html`<p class="muted small">${t("recap.none")}</p>`}
        ${s && s.claims.length > 0 && html`<h3>${t("recap.claims")}</h3><ul>${s.claims.map((e, i) => html`<li key=${i}>♛ ${t("recap.claim", { seat: who(e.seat), over: who(e.over) })}</li>`)}</ul>`}
        <h3>${t("recap.fights")}</h3>
        ${s && s.fights.length ? html`<ul>${s.fights.map((e, i) => html`<li key=${i}>⚔ ${t("recap.fight", {
          attacker: who(e.attacker), defender: who(e.defender), winner: who(e.winner), a: e.attack_total, d: e.defence_total, card: name(e.captured) })}</li>`)}</ul>`
          : html`<p class="muted small">${t("recap.no_fight")}</p>`}
        ${s && s.revolutions.length > 0 && html`<ul>${s.revolutions.map((e, i) => html`<li key=${i}>⚡ ${t("recap.revolution", { seat: who(e.seat), n: (e.victims || []).length })}</li>`)}</ul>`}
        ${s && s.deals > 0 && html`<p class="small">⇌ ${t("recap.deals", { n: s.deals })}</p>`}
      </div>
      <table class="recap-piles">
        <thead><tr><th>${t("result.player")}</th><th>${t("recap.before")}</th><th>${t("recap.after")}</th><th>±</th></tr></thead>
        <tbody>${Array.from({ length: seatsN }, (_, x) => {
          const b = before ? before[x] : null, a = after ? after[x] : null;
          const diff = a !== null && b !== null ? a - b : null;
          return html`<tr key=${x} class=${x === ts.you ? "me" : ""}><td>${who(x)}</td><td>${b ?? "?"}</td><td>${a ?? "?"}</td>
            <td class=${diff > 0 ? "up" : diff < 0 ? "down" : ""}>${diff === null ? "" : diff > 0 ? `+${diff}` : diff}</td></tr>`;
        })}</tbody>
      </table>
    </div>
    ${!before && html`<p class="small muted">${t("recap.unknown_before")}</p>`}
  </section>`;
}
