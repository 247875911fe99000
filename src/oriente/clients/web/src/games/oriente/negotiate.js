// Deals in the decision panel, where a person looks during a fight: the
// quick deals of the fight, pre-filled (quick.js), in one click; the offers
// made to this seat with Accept / Decline (with a reason, R8.8) / Counter
// (the builder, pre-filled from the offer); and this seat's own deals, in
// words: who has accepted, who declined and why. The full builder stays
// one click away for everything else.
import { h } from "preact";
import htm from "htm";
import { useState } from "preact/hooks";
import { cardRef } from "./cards.js";
import { DealBuilder } from "./deals.js";
import { counterDraft, dealsOf, quickCommands, quickOptions } from "./quick.js";
import { seatLabel } from "../../common.js";
import { act, narratorOf } from "../../live.js";
import { app, errorText } from "../../state.js";

const html = htm.bind(h);
// The reasons a person may give for declining (R8.8; `record` names the
// proposer's public record, filled in from the view).
const DECLINE_REASONS = ["worth_less", "record", "cannot_keep", "words_only", "too_late"];

const cardName = (c) => cardRef().name(c, app.lang);
const names = (ts, seats) => seats.map((s) => seatLabel(ts, s)).join(", ");

function optionLabel(ts, o) {
  const t = app.t;
  if (o.kind === "buy_support") return t("quick.buy_support", { side: t(`side.${o.side}`) });
  if (o.kind === "sell_support") return t("quick.sell_support", { name: seatLabel(ts, o.fighter), side: t(`role.${o.side}`) });
  return t("quick.peace");
}

// The quick deals of the moment, one click to propose. Its choices are
// kept per decision: a new prompt (another fight) starts them afresh.
export function QuickDeal({ ts }) {
  const t = app.t;
  const options = quickOptions(ts.view, ts.prompt, ts.you, (c) => cardRef().value(c));
  const key = ts.prompt ? ts.prompt.id : null;
  const [pick, setPick] = useState({ key: null, index: 0, card: null, seats: null });
  const [sent, setSent] = useState(null);
  const [more, setMore] = useState(false);
  if (!options.length && !more) return null;
  const mine = pick.key === key ? pick : { key, index: 0, card: null, seats: null };
  const option = options[Math.min(mine.index, options.length - 1)];
  const set = (patch) => { setPick({ ...mine, ...patch }); setSent(null); };
  const card = option && option.cards.includes(mine.card) ? mine.card : option ? option.card : null;
  const chosen = option ? (mine.seats || option.chosen).filter((s) => option.seats.includes(s)) : [];
  const toggle = (s) => set({ seats: chosen.includes(s) ? chosen.filter((x) => x !== s) : [...chosen, s] });
  const propose = async () => {
    const words = (k, args) => t(k, args);
    const cmds = quickCommands(option, card, chosen, ts.view, ts.you, words, (s) => seatLabel(ts, s));
    const done = [], failed = [];
    for (const [i, cmd] of cmds.entries()) {
      try {
        await app.net.request({ t: "act", table: ts.id, cmd });
        done.push(seatLabel(ts, chosen[i]));
      } catch (err) {
        failed.push(errorText(err));
      }
    }
    setSent({ text: done.length ? t("quick.sent", { list: done.join(", ") }) : "", error: failed[0] || null });
  };
  return html`<section class="quick" aria-label=${t("quick.title")}>
    <h3>${t("quick.title")}</h3>
    ${option && html`<div class="quick-kinds" role="radiogroup" aria-label=${t("quick.title")}>
      ${options.map((o, i) => html`<label key=${`${o.kind}-${o.side || ""}`} class="check">
        <input type="radio" name="quick-kind" checked=${o === option} onChange=${() => set({ index: i, card: null, seats: null })} />
        ${optionLabel(ts, o)}</label>`)}
    </div>
    <div class="quick-row">
      <label class="field">${t(option.giver === ts.you ? "quick.card_mine" : "quick.card_theirs")}
        <select class="quick-card" value=${String(card)} onChange=${(e) => set({ card: Number(e.target.value) })}>
          ${option.cards.map((c) => html`<option key=${c} value=${String(c)}>${cardName(c)}</option>`)}
        </select></label>
      ${option.seats.length > 1 ? html`<fieldset class="quick-seats"><legend>${t("quick.to")}</legend>
          ${option.seats.map((s) => html`<label key=${s} class="check"><input type="checkbox" checked=${chosen.includes(s)}
            onChange=${() => toggle(s)} />${seatLabel(ts, s)}</label>`)}</fieldset>`
        : html`<span class="small">${t("quick.to")}: ${names(ts, option.seats)}</span>`}
    </div>
    ${chosen.length > 1 && option.kind !== "sell_support" && html`<p class="small note">${t("quick.several")}</p>`}
    <p class="actions">
      <button type="button" class="primary quick-propose" disabled=${!chosen.length || card === null} onClick=${propose}>
        ${chosen.length > 1 ? t("quick.propose_n", { n: chosen.length }) : t("quick.propose")}</button>
      <button type="button" onClick=${() => setMore(!more)}>${t("quick.more")}</button>
    </p>`}
    ${!option && html`<p class="actions"><button type="button" onClick=${() => setMore(!more)}>${t("quick.more")}</button></p>`}
    ${sent && sent.text && html`<p class="small quick-sent" role="status">${sent.text}</p>`}
    ${sent && sent.error && html`<p class="error" role="alert">${sent.error}</p>`}
    ${more && html`<${DealBuilder} ts=${ts} onDone=${() => setMore(false)} />`}
  </section>`;
}

// A deal's terms in the reader's words: the cards it moves and what each
// promise is (structured promises from their fields, others in their words).
export function dealTerms(ts, deal) {
  const t = app.t;
  const who = (s) => seatLabel(ts, s);
  const parts = (deal.transfers || []).map((x) => t("offers.gives", { giver: who(x.giver), card: cardName(x.card), receiver: who(x.receiver) }));
  for (const p of deal.promises || []) {
    if (p.kind === "support") {
      parts.push(t("offers.support", { promiser: who(p.promiser), side: t(`side.${p.side}`), fighter: who(p.side === "attacker" ? p.attacker : p.defender) }));
    } else if (p.kind === "no_attack") {
      parts.push(t("offers.no_attack", { promiser: who(p.promiser), seat: who(p.seat) }));
    } else if (p.kind === "pay") {
      parts.push(t("offers.pay", { promiser: who(p.promiser), promisee: who(p.promisee), cards: (p.cards || []).map(cardName).join(", "), season: p.by_season }));
    } else {
      parts.push(t("deals.promise", { promiser: who(p.promiser), promisee: who(p.promisee), text: p.text }));
    }
  }
  return parts;
}

function reasonFor(ts, code, deal) {
  if (code === "record") {
    const s = ts.view.seats[deal.proposer];
    return { code, seat: deal.proposer, kept: s.kept || 0, broken: s.broken || 0 };
  }
  return { code };
}

function Offer({ ts, deal }) {
  const t = app.t;
  const [why, setWhy] = useState("");
  const [countering, setCountering] = useState(false);
  const legal = ts.prompt ? ts.prompt.legal || [] : [];
  const can = (type) => legal.find((c) => c.type === type && c.deal === deal.deal);
  const accept = can("AcceptDeal"), decline = can("DeclineDeal");
  const narrator = narratorOf(ts);
  const purpose = deal.why ? narrator.why(deal.why) : null;
  return html`<li class="offer" data-deal=${deal.deal}>
    <div><b>${t("offers.from", { deal: deal.deal, name: seatLabel(ts, deal.proposer) })}</b></div>
    <ul class="terms">${dealTerms(ts, deal).map((x, i) => html`<li key=${i}>${x}</li>`)}</ul>
    ${purpose && html`<p class="small why">${purpose}</p>`}
    ${deal.counter_to !== undefined && deal.counter_to !== null && html`<p class="small muted">${t("mydeals.counter", { deal: deal.counter_to })}</p>`}
    <div class="choices">
      ${accept && html`<button type="button" class="primary" onClick=${() => act(ts, accept)}>${t("deals.AcceptDeal")}</button>`}
      ${decline && html`<button type="button" onClick=${() => act(ts, why ? { ...decline, why: reasonFor(ts, why, deal) } : decline)}>${t("deals.DeclineDeal")}</button>
        <label class="field inline small">${t("offers.why_label")}
          <select class="decline-why" value=${why} onChange=${(e) => setWhy(e.target.value)}>
            <option value="">${t("offers.why_none")}</option>
            ${DECLINE_REASONS.map((code) => html`<option key=${code} value=${code}>${narrator.why(reasonFor(ts, code, deal))}</option>`)}
          </select></label>`}
      <button type="button" onClick=${() => setCountering(!countering)}>${t("offers.counter")}</button>
    </div>
    ${countering && html`<div class="counter"><h3>${t("offers.counter_title", { deal: deal.deal })}</h3>
      <${DealBuilder} ts=${ts} initial=${counterDraft(deal)} onDone=${() => setCountering(false)} /></div>`}
  </li>`;
}

// Offers waiting for this seat's answer: open deals it is a party to and
// has not accepted.
export function Offers({ ts }) {
  const t = app.t;
  const view = ts.view;
  if (!view || !ts.seated || !view.deals) return null;
  const offers = view.deals.filter((d) => d.parties.includes(ts.you) && !d.accepted.includes(ts.you));
  if (!offers.length) return null;
  return html`<section class="offers" aria-label=${t("offers.title")}>
    <h3>${t("offers.title")}</h3>
    <ul>${offers.map((d) => html`<${Offer} key=${d.deal} ts=${ts} deal=${d} />`)}</ul>
  </section>`;
}

function dealState(ts, d) {
  const t = app.t;
  const narrator = narratorOf(ts);
  const who = (s) => seatLabel(ts, s);
  switch (d.status) {
    case "open": return t("mydeals.open", { yes: names(ts, d.accepted), no: names(ts, d.parties.filter((s) => !d.accepted.includes(s))) });
    case "executed": return t("mydeals.executed");
    case "declined": return d.why ? t("mydeals.declined_why", { name: who(d.by), why: narrator.why(d.why) }) : t("mydeals.declined", { name: who(d.by) });
    case "withdrawn": return t("mydeals.withdrawn", { name: who(d.by) });
    case "void": return t("mydeals.void");
    case "lapsed": return t("mydeals.lapsed");
    default: return d.status;
  }
}

// This seat's deals of the season and what became of each, newest first;
// offers still waiting for its answer are listed above, with their buttons.
export function MyDeals({ ts }) {
  const t = app.t;
  if (!ts.view || !ts.seated) return null;
  const waiting = new Set((ts.view.deals || []).filter((d) => !d.accepted.includes(ts.you)).map((d) => d.deal));
  const deals = dealsOf(ts.events, ts.you).filter((d) => !waiting.has(d.deal)).reverse().slice(0, 6);
  if (!deals.length) return null;
  return html`<section class="mydeals" aria-label=${t("mydeals.title")}>
    <h3>${t("mydeals.title")}</h3>
    <ul role="status">${deals.map((d) => html`<li key=${d.deal} class=${`md-${d.status}`} data-deal=${d.deal}>
      ${t("mydeals.line", { deal: d.deal, parties: names(ts, d.parties.filter((s) => s !== ts.you)), state: dealState(ts, d) })}</li>`)}</ul>
  </section>`;
}
