// Negotiation in the page (R8): open deals with their state and the answers
// the server lists for this seat, a builder for new proposals (cards each
// side gives, structured promises, any number of parties), and the public
// promise ledger.
import { h } from "preact";
import htm from "htm";
import { useState } from "preact/hooks";
import { Card, cardRef } from "./cards.js";
import { Countdown } from "../../common.js";
import { act, seatName } from "../../live.js";
import { app, errorText } from "../../state.js";

const html = htm.bind(h);
const KINDS = ["free", "support", "pay", "no_attack"];

function who(ts, s) { return s === ts.you ? app.t("seat.you_named", { name: seatName(ts, s) }) : seatName(ts, s); }

function promiseText(ts, p) {
  const t = app.t;
  const base = t("deals.promise", { promiser: who(ts, p.promiser), promisee: who(ts, p.promisee), text: p.text });
  if (p.kind === "support") return `${base} [${t("deals.kind.support")}: ${t(`side.${p.side}`)}, ${who(ts, p.attacker)} ⚔ ${who(ts, p.defender)}]`;
  if (p.kind === "pay") return `${base} [${t("deals.kind.pay")}: ${p.cards.map((c) => cardRef().name(c, app.lang)).join(", ")} ≤ ${t("board.season", { n: p.by_season })}]`;
  if (p.kind === "no_attack") return `${base} [${t("deals.kind.no_attack")}: ${who(ts, p.seat)}]`;
  return base;
}

function OpenDeal({ ts, deal }) {
  const t = app.t;
  const legal = ts.prompt ? ts.prompt.legal || [] : [];
  const mine = legal.filter((c) => c.deal === deal.deal && ["AcceptDeal", "DeclineDeal", "WithdrawDeal"].includes(c.type));
  return html`<li class="deal">
    <div><b>#${deal.deal}</b> ${t("deals.by", { name: who(ts, deal.proposer) })}</div>
    <ul>
      ${deal.transfers.map((x, i) => html`<li key=${`t${i}`}>${t("deals.transfer", { giver: who(ts, x.giver), receiver: who(ts, x.receiver) })}
        <${Card} card=${x.card} size="s" /> <span class="muted">(${t("deals.for", { text: x.consideration })})</span></li>`)}
      ${deal.promises.map((p, i) => html`<li key=${`p${i}`}>${promiseText(ts, p)}</li>`)}
    </ul>
    <div class="small">${deal.parties.map((s) => html`<span key=${s} class=${`tag ${deal.accepted.includes(s) ? "yes" : ""}`}>
      ${deal.accepted.includes(s) ? "✓" : "…"} ${who(ts, s)}</span>`)}</div>
    ${mine.length > 0 && html`<div class="choices">${mine.map((c) => html`<button type="button" key=${c.type} class=${c.type === "AcceptDeal" ? "primary" : ""}
      onClick=${() => act(ts, c)}>${t(`deals.${c.type}`)}</button>`)}</div>`}
  </li>`;
}

function Ledger({ ts }) {
  const t = app.t;
  const view = ts.view;
  const legal = ts.prompt ? ts.prompt.legal || [] : [];
  if (!view || !view.ledger.length) return html`<p class="small muted">${t("deals.ledger_empty")}</p>`;
  return html`<ul class="ledger">${view.ledger.map((e) => {
    const settle = legal.filter((c) => c.type === "SettlePromise" && c.promise === e.promise);
    return html`<li key=${e.promise}><span class=${`status s-${e.status}`}>${t(`status.${e.status}`)}</span>
      #${e.promise} ${promiseText(ts, e)}
      ${settle.map((c) => html`<button type="button" key=${String(c.kept)} class="small" onClick=${() => act(ts, c)}>${t(c.kept ? "deals.mark_kept" : "deals.mark_broken")}</button>`)}
    </li>`;
  })}</ul>`;
}

function emptyTransfer(ts) { return { giver: ts.you, card: null, receiver: null, consideration: "" }; }
function emptyPromise(ts) {
  const fight = ts.view && ts.view.fight;
  return { promiser: ts.you, promisee: null, text: "", kind: "free", attacker: fight ? fight.attacker : null,
    defender: fight ? fight.defender : null, side: "defender", cards: [], by_season: ts.view ? ts.view.season : 1, seat: null };
}

function SeatSelect({ ts, value, onChange, label, exclude = [] }) {
  const n = ts.view.seats.length;
  return html`<label class="field">${label}
    <select value=${value === null ? "" : String(value)} onChange=${(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}>
      <option value="">—</option>
      ${Array.from({ length: n }, (_, s) => s).filter((s) => !exclude.includes(s)).map((s) => html`<option key=${s} value=${String(s)}>${who(ts, s)}</option>`)}
    </select></label>`;
}

// `initial`: a draft to start from ({transfers, promises, counterTo}): a
// counter-offer starts from the offer it answers and names it (R8.8).
export function DealBuilder({ ts, onDone, initial = null }) {
  const t = app.t;
  const view = ts.view;
  const [transfers, setTransfers] = useState(initial ? initial.transfers : []);
  const [promises, setPromises] = useState(initial ? initial.promises : []);
  const [note, setNote] = useState("");
  const [error, setError] = useState(null);
  const edit = (list, set, i, patch) => set(list.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const submit = async (ev) => {
    ev.preventDefault();
    const cmd = {
      type: "ProposeDeal",
      transfers: transfers.map((x) => ({ type: "Transfer", card: x.card, giver: x.giver, receiver: x.receiver, consideration: x.consideration.trim() })),
      promises: promises.map((p) => {
        const out = { type: "Promise", promiser: p.promiser, promisee: p.promisee, text: p.text.trim(), kind: p.kind,
          attacker: null, defender: null, side: null, cards: [], by_season: null, seat: null };
        if (p.kind === "support") Object.assign(out, { attacker: p.attacker, defender: p.defender, side: p.side });
        if (p.kind === "pay") Object.assign(out, { cards: p.cards, by_season: Number(p.by_season) });
        if (p.kind === "no_attack") out.seat = p.seat;
        return out;
      }),
      note: note.trim(),
    };
    if (initial && initial.counterTo !== undefined && initial.counterTo !== null) {
      Object.assign(cmd, { counter_to: initial.counterTo, why: { code: "counter", deal: initial.counterTo } });
    }
    if (!cmd.transfers.length && !cmd.promises.length) { setError(t("deals.empty")); return; }
    if (cmd.transfers.some((x) => x.card === null || x.giver === null || x.receiver === null || !x.consideration)) { setError(t("deals.incomplete")); return; }
    if (cmd.promises.some((p) => p.promiser === null || p.promisee === null || !p.text)) { setError(t("deals.incomplete")); return; }
    try {
      await app.net.request({ t: "act", table: ts.id, cmd });
      onDone();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const p = ts.prompt;
  return html`<form class="builder" onSubmit=${submit} aria-label=${t("deals.builder")}>
    ${p && p.deadline_ms !== undefined && html`<p class="builder-clock">${t(`topic.${p.topic}`)} <${Countdown} prompt=${p} at=${ts.promptAt} /></p>`}
    <h3>${t("deals.cards")}</h3>
    ${transfers.map((x, i) => html`<fieldset key=${i} class="row-edit">
      <${SeatSelect} ts=${ts} label=${t("deals.giver")} value=${x.giver} onChange=${(v) => edit(transfers, setTransfers, i, { giver: v, card: null })} />
      <label class="field">${t("deals.card")}
        <select value=${x.card === null ? "" : String(x.card)} onChange=${(e) => edit(transfers, setTransfers, i, { card: e.target.value === "" ? null : Number(e.target.value) })}>
          <option value="">—</option>
          ${(x.giver !== null ? view.seats[x.giver].pile : []).map((c) => html`<option key=${c} value=${String(c)}>${cardRef().name(c, app.lang)}</option>`)}
        </select></label>
      <${SeatSelect} ts=${ts} label=${t("deals.receiver")} value=${x.receiver} exclude=${[x.giver]} onChange=${(v) => edit(transfers, setTransfers, i, { receiver: v })} />
      <label class="field wide">${t("deals.consideration")}
        <input maxlength="500" value=${x.consideration} placeholder=${t("deals.consideration_hint")} onInput=${(e) => edit(transfers, setTransfers, i, { consideration: e.target.value })} /></label>
      <button type="button" class="small" onClick=${() => setTransfers(transfers.filter((_, j) => j !== i))}>${t("deals.remove")}</button>
    </fieldset>`)}
    <button type="button" onClick=${() => setTransfers([...transfers, emptyTransfer(ts)])}>+ ${t("deals.add_card")}</button>
    <h3>${t("deals.promises")}</h3>
    ${promises.map((p, i) => html`<fieldset key=${i} class="row-edit">
      <${SeatSelect} ts=${ts} label=${t("deals.promiser")} value=${p.promiser} onChange=${(v) => edit(promises, setPromises, i, { promiser: v })} />
      <${SeatSelect} ts=${ts} label=${t("deals.promisee")} value=${p.promisee} exclude=${[p.promiser]} onChange=${(v) => edit(promises, setPromises, i, { promisee: v })} />
      <label class="field">${t("deals.kind")}
        <select value=${p.kind} onChange=${(e) => edit(promises, setPromises, i, { kind: e.target.value })}>
          ${KINDS.map((k) => html`<option key=${k} value=${k}>${t(`deals.kind.${k}`)}</option>`)}
        </select></label>
      ${p.kind === "support" && html`
        <${SeatSelect} ts=${ts} label=${t("role.attacker")} value=${p.attacker} onChange=${(v) => edit(promises, setPromises, i, { attacker: v })} />
        <${SeatSelect} ts=${ts} label=${t("role.defender")} value=${p.defender} onChange=${(v) => edit(promises, setPromises, i, { defender: v })} />
        <label class="field">${t("deals.side")}<select value=${p.side} onChange=${(e) => edit(promises, setPromises, i, { side: e.target.value })}>
          <option value="attacker">${t("role.attacker")}</option><option value="defender">${t("role.defender")}</option></select></label>`}
      ${p.kind === "pay" && html`
        <label class="field">${t("deals.pay_cards")}<select multiple value=${p.cards.map(String)}
          onChange=${(e) => edit(promises, setPromises, i, { cards: [...e.target.selectedOptions].map((o) => Number(o.value)) })}>
          ${(p.promiser !== null ? view.seats[p.promiser].pile : []).map((c) => html`<option key=${c} value=${String(c)}>${cardRef().name(c, app.lang)}</option>`)}
        </select></label>
        <label class="field">${t("deals.by_season")}<input type="number" min=${view.season} value=${p.by_season} onInput=${(e) => edit(promises, setPromises, i, { by_season: e.target.value })} /></label>`}
      ${p.kind === "no_attack" && html`<${SeatSelect} ts=${ts} label=${t("deals.not_attack")} value=${p.seat} exclude=${[p.promiser]} onChange=${(v) => edit(promises, setPromises, i, { seat: v })} />`}
      <label class="field wide">${t("deals.words")}<input maxlength="500" value=${p.text} placeholder=${t("deals.words_hint")} onInput=${(e) => edit(promises, setPromises, i, { text: e.target.value })} /></label>
      <button type="button" class="small" onClick=${() => setPromises(promises.filter((_, j) => j !== i))}>${t("deals.remove")}</button>
    </fieldset>`)}
    <button type="button" onClick=${() => setPromises([...promises, emptyPromise(ts)])}>+ ${t("deals.add_promise")}</button>
    <label class="field wide">${t("deals.note")}<input maxlength="500" value=${note} onInput=${(e) => setNote(e.target.value)} /></label>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <p class="actions"><button type="submit" class="primary">${t("deals.propose")}</button>
      <button type="button" onClick=${onDone}>${t("deals.cancel")}</button></p>
  </form>`;
}

export function DealsPanel({ ts }) {
  const t = app.t;
  const [building, setBuilding] = useState(false);
  const view = ts.view;
  if (!view) return html`<p class="muted">${t("deals.not_started")}</p>`;
  const running = ts.info && ts.info.status === "running";
  return html`<div class="deals">
    ${ts.seated && running && !building && html`<button type="button" class="primary" onClick=${() => setBuilding(true)}>${t("deals.new")}</button>`}
    ${building && html`<${DealBuilder} ts=${ts} onDone=${() => setBuilding(false)} />`}
    <h3>${t("deals.open")}</h3>
    ${view.deals.length ? html`<ul class="open-deals">${view.deals.map((d) => html`<${OpenDeal} key=${d.deal} ts=${ts} deal=${d} />`)}</ul>`
      : html`<p class="small muted">${t("deals.none")}</p>`}
    <h3>${t("deals.ledger")}</h3>
    <${Ledger} ts=${ts} />
    <h3>${t("deals.records")}</h3>
    <ul class="records">${view.seats.map((s) => html`<li key=${s.seat}>${who(ts, s.seat)}: ✓${s.kept} ${t("status.kept")} · ✗${s.broken} ${t("status.broken")}</li>`)}</ul>
  </div>`;
}
