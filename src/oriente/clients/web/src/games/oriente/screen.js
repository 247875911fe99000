// Oriente's table screen: seats around the table, the village square, the
// open decision with its legal choices, the end, and (deals.js) the deals.
// The same components draw a live table and a replay step.
import { h } from "preact";
import htm from "htm";
import { Card, cardRef } from "./cards.js";
import { changesOf, ICONS } from "./changes.js";
import { hopelessClaim } from "./claims.js";
import { breaksPromise, promisedPeace, promisedSupport } from "./promises.js";
import { tieBreaks } from "./ranking.js";
import { choiceKey } from "../../keys.js";
import { autoTopics, setAutoTopic } from "../../settings.js";
import { Badge } from "../../account.js";
import { CardsCheck } from "../../verify.js";
import { MyDeals, Offers, QuickDeal } from "./negotiate.js";
import { Countdown, seatLabel } from "../../common.js";
import { act, goToRematch, narratorOf, seatName } from "../../live.js";
import { answerKey } from "../../state/table.js";
import { app } from "../../state.js";
import { cap } from "../../narrate.js";

const html = htm.bind(h);

// The rounds a person may pass at once, whatever the card (R10.2d): settings.js.
export const AUTO_PASS = ["privilege", "support", "revolution"];

// Oriente's answers to a decision (its deal commands left out: deals.js).
const DECISIONS = new Set(["Announce", "Pass", "Claim", "Support", "Join", "Choose", "Done"]);

export function actionLabel(ts, action) {
  if (!action) return "";
  const name = cardRef().action(action.kind, app.lang);
  return action.target !== null && action.target !== undefined ? app.t("action.target", { action: name, target: seatLabel(ts, action.target) }) : name;
}

function answerText(ts, topic, answer) {
  const t = app.t;
  if (answer === null || answer === undefined) return t("answer.pass");
  if (topic === "support") return t("answer.support", { side: t(`side.${answer}`) });
  if (topic === "revolution") return t("answer.joined");
  return String(answer);
}

// -- seats -------------------------------------------------------------------------

function Presence({ ts, s }) {
  const slot = ts.info && ts.info.seats ? ts.info.seats[s] : null;
  const t = app.t;
  let cls = "on", label = t("presence.connected"), glyph = "●";
  if (ts.proxied.includes(s)) { cls = "proxy"; label = t("presence.proxied"); glyph = "⚙"; }
  else if (slot && slot.away) { cls = "away"; label = t("presence.away"); glyph = "◐"; }
  else if (!slot || !slot.connected) { cls = "off"; label = t("presence.offline"); glyph = "○"; }
  return html`<span class=${`presence p-${cls}`} title=${label} aria-label=${label}>${glyph}<span class="plabel">${label}</span></span>`;
}

// What the last step did to a seat, marked until the next step (changes.js).
function Changes({ marks }) {
  if (!marks || !marks.length) return null;
  return html`<ul class="changes" aria-label=${app.t("change.aria")}>
    ${marks.map((m, i) => html`<li key=${i} class=${`change ${m.kind}`}><span aria-hidden="true">${ICONS[m.kind]}</span> ${app.t(`change.${m.kind}`, m.args)}</li>`)}
  </ul>`;
}

function Seat({ ts, view, s, marks = null, arrived = null }) {
  const t = app.t;
  const seat = view ? view.seats[s] : null;
  const slot = ts.info && ts.info.seats ? ts.info.seats[s] : null;
  const p = ts.prompt || (view && view.decision);
  const pivot = p && p.pivot === s;
  const fight = view && view.fight;
  const role = fight ? (fight.attacker === s ? "attacker" : fight.defender === s ? "defender" : null) : null;
  const published = p && p.published ? p.published.find(([x]) => x === s) : null;
  // Asked until it has answered: a published answer shows instead, and this page knows its own (sealed or sent).
  const answered = s === ts.you && ts.prompt && (ts.prompt.sealed || ts.sentFor === answerKey(ts));
  const asked = p && (p.asked || []).includes(s) && !answered;
  const pile = seat ? seat.pile : [];
  const points = pile.reduce((sum, c) => sum + (cardRef().value(c) || 0), 0);
  let known = null;
  if (seat && !seat.empty && !seat.revealed && Array.isArray(seat.known_to)) {
    const others = seat.known_to.filter((x) => x !== s);
    if (others.length) known = t("seat.known_to", { list: others.map((x) => seatLabel(ts, x)).join(", ") });
    else if (s === ts.you) known = t("seat.only_you");
  }
  const classes = ["seat", s === ts.you ? "me" : "", pivot ? "pivot" : "", role || "", view && view.announcer === s ? "announcer" : "",
    marks && marks.length ? "changed" : ""].join(" ");
  return html`<section class=${classes} aria-label=${t("seat.aria", { name: seatLabel(ts, s), n: s })}>
    <header>
      <${Presence} ts=${ts} s=${s} />
      <b class="who">${slot && slot.bot ? slot.name.replace(/ \(bot\)$/, "") : seatName(ts, s)}</b>
      ${s === ts.you && html`<span class="badge you">${t("seat.you")}</span>`}
      ${slot && slot.bot && html`<span class="badge bot" title=${t("seat.bot_aria", { kind: t(`bot.${slot.bot}`) })}>${t("seat.bot")}</span>`}
      ${slot && html`<${Badge} account=${slot.account} />`}
      <span class="muted num">#${s}</span>
      ${view && view.stone_holder === s && html`<span class="badge stone" title=${t("seat.stone")} aria-label=${t("seat.stone")}>◉</span>`}
      ${seat && html`<span class=${`badge disc ${seat.disc ? "held" : "used"}`} title=${seat.disc ? t("seat.disc") : t("seat.no_disc")}
                          aria-label=${seat.disc ? t("seat.disc") : t("seat.no_disc")}>${seat.disc ? "⬤" : "◯"}</span>`}
    </header>
    <${Changes} marks=${marks} />
    ${seat && html`<div class="hand">
      <div class="inh">
        ${seat.empty ? html`<span class="card empty m" aria-label=${t("seat.empty")}></span>`
          : html`<${Card} card=${seat.inhabitant} mine=${s === ts.you && !seat.revealed && seat.inhabitant !== null} />`}
        <span class="small muted">${seat.empty ? t("seat.empty") : seat.revealed ? t("seat.revealed")
          : seat.inhabitant !== null && s !== ts.you ? t("seat.face_down_seen") : t("seat.face_down")}</span>
      </div>
      <div class="pile" aria-label=${t("seat.pile_aria", { n: pile.length, points })}>
        <div class="cards">${pile.map((c) => (arrived && arrived.has(c)
          ? html`<span key=${c} class="arrived" title=${t("change.arrived")}><${Card} card=${c} size="s" /></span>`
          : html`<${Card} key=${c} card=${c} size="s" />`))}</div>
        <span class="pts">${t("seat.points", { n: points })}</span>
      </div>
    </div>`}
    ${known && html`<div class="small known">${known}</div>`}
    <div class="tags">
      ${role && html`<span class=${`tag ${role}`}>${t(`role.${role}`)}</span>`}
      ${published && html`<span class="tag">${answerText(ts, p.topic, published[1])}</span>`}
      ${asked && !published && !pivot && p.kind !== "window" && html`<span class="tag muted">${t("seat.asked")}</span>`}
      ${seat && (seat.kept || seat.broken) ? html`<span class="tag record" title=${t("seat.record")}>✓${seat.kept} ✗${seat.broken}</span>` : ""}
      ${pivot && ts.prompt && html`<${Countdown} prompt=${ts.prompt} at=${ts.promptAt} />`}
    </div>
  </section>`;
}

function Board({ ts, view }) {
  const t = app.t;
  if (!view) return html`<div class="board"><p>${t("board.waiting")}</p></div>`;
  const w = view.workers;
  const dots = (n, cls) => Array.from({ length: n }, (_, i) => html`<span key=${i} class=${`worker ${cls}`} aria-hidden="true">●</span>`);
  return html`<div class="board" aria-label=${t("board.aria")}>
    <div class="line"><b>${t("board.season", { n: view.season })}</b> · ${t(`phase.${view.phase}`)}</div>
    <div class="village">
      <div><span class="small muted">${t("board.supply")}</span><div>${dots(w.supply, "supply")}</div></div>
      ${w.hut_used && html`<div><span class="small muted">${t("board.hut")}</span><div>${dots(w.hut, "hut")}</div></div>`}
      <div><span class="small muted">${t("board.square")}</span><div>${dots(w.square, "square")}</div></div>
    </div>
    <div class="piles">
      <div class="stack" title=${t("board.deck")}><span class="card back s"></span> ${t("board.deck_n", { n: view.deck_size })}</div>
      <div class="stack" title=${t("board.bonus")}><span class="card back s bonus"></span> ${t("board.bonus_n", { n: view.bonus_size })}${view.bonus_set_aside ? " " + t("board.set_aside", { n: view.bonus_set_aside }) : ""}</div>
    </div>
    ${view.deck_bottom && view.deck_bottom.length > 0 && html`<div class="small">${t("board.bottom")} ${view.deck_bottom.map((c) => html`<${Card} key=${c} card=${c} size="s" />`)}</div>`}
    ${view.announcer !== null && view.announcer !== undefined && view.action && html`<div class="announce">
      ${t("board.announced", { name: seatLabel(ts, view.announcer), action: actionLabel(ts, view.action) })}</div>`}
    ${view.fight && html`<div class="fight">${t("board.fight", { attacker: seatLabel(ts, view.fight.attacker), defender: seatLabel(ts, view.fight.defender) })}
      ${view.in_play && view.in_play.length > 0 && html`<div>${view.in_play.map((c, i) => html`<${Card} key=${i} card=${c} size="s" />`)}</div>`}</div>`}
  </div>`;
}

// Seats sit around the square, clockwise from the viewer at the bottom:
// (bottom extras each side, seats per side column, top row) by seat count.
const LAYOUT = { 4: [0, 1, 1], 5: [0, 1, 2], 6: [0, 1, 3], 7: [0, 2, 2], 8: [0, 2, 3], 9: [0, 2, 4], 10: [1, 2, 3], 11: [1, 2, 4], 12: [1, 2, 5] };

export function Ring({ ts, view }) {
  const n = view ? view.seats.length : ts.info ? ts.info.settings.seats : 0;
  const base = ts.seated ? ts.you : 0;
  const [be, side, top] = LAYOUT[n] || [0, Math.floor((n - 1) / 3), n - 1 - 2 * Math.floor((n - 1) / 3)];
  const at = (k) => (base + k) % n;
  const { marks, arrived } = changesOf(ts.fresh, (a) => actionLabel(ts, a));
  const seat = (k) => { const s = at(k); return html`<${Seat} key=${s} ts=${ts} view=${view} s=${s} marks=${marks.get(s)} arrived=${arrived} />`; };
  const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
  const bottom = [...range(1, be + 1).reverse(), 0, ...range(n - be, n).reverse()];
  const left = range(be + 1, be + 1 + side).reverse();
  const topRow = range(be + 1 + side, be + 1 + side + top);
  const right = range(be + 1 + side + top, be + 1 + 2 * side + top);
  return html`<div class=${`ring n${n}`}>
    <div class="r-top">${topRow.map(seat)}</div>
    <div class="r-left">${left.map(seat)}</div>
    <${Board} ts=${ts} view=${view} />
    <div class="r-right">${right.map(seat)}</div>
    <div class="r-bottom">${bottom.map(seat)}</div>
  </div>`;
}

// -- the decision --------------------------------------------------------------------

export function choiceLabel(ts, cmd, topic) {
  const t = app.t, view = ts.view || {};
  switch (cmd.type) {
    case "Pass": return t(`pass.${topic}`);
    case "Announce": return actionLabel(ts, cmd.action);
    case "Claim": return t("choice.claim", { action: actionLabel(ts, cmd.action) });
    case "Support": {
      const fight = view.fight || {};
      const who = cmd.side === "attacker" ? fight.attacker : fight.defender;
      return t("choice.support", { side: t(`side.${cmd.side}`), name: who !== undefined && who !== null ? seatLabel(ts, who) : "" });
    }
    case "Join": return t("choice.join");
    case "Done": return t("choice.done");
    case "Choose": return cardRef().name(cmd.card, app.lang);
    default: return cmd.type;
  }
}

// What each kind of answer does, once per kind: the card reference's text
// for an announced ability, the catalogue's words for everything else.
function choiceHelp(ts, answers, topic) {
  const t = app.t, lang = app.lang;
  const has = (key) => t(key) !== key;
  const out = new Map();
  const action = (kind) => {
    const text = kind === "attack" ? t("help.attack") : cardRef().actionText(kind, lang);
    if (text) out.set(`a-${kind}`, [cardRef().action(kind, lang), text]);
  };
  for (const c of answers) {
    switch (c.type) {
      case "Pass": if (has(`help.pass.${topic}`)) out.set("pass", [t(`pass.${topic}`), t(`help.pass.${topic}`)]); break;
      case "Announce": action(c.action.kind); break;
      case "Claim": out.set("claim", [t("term.claim"), t("help.claim")]); action(c.action.kind); break;
      case "Support": out.set("support", [t("term.support"), t("help.support")]); break;
      case "Join": out.set("join", [t("choice.join"), t("help.join")]); break;
      case "Done": out.set("done", [t("choice.done"), t("help.done")]); break;
      case "Choose": if (has(`help.choose.${topic}`)) out.set("choose", [t(`topic.${topic}`), t(`help.choose.${topic}`)]); break;
      default: break;
    }
  }
  return [...out.values()];
}

export function Decision({ ts }) {
  const t = app.t;
  const p = ts.prompt;
  const me = ts.you;
  if (!p) {
    const status = ts.info ? ts.info.status : "open";
    return html`<section class="decision idle" aria-label=${t("decision.aria")}>
      <p>${status === "open" ? t("decision.waiting_players") : status === "finished" ? t("decision.over") : t("decision.none")}</p></section>`;
  }
  const answers = (p.legal || []).filter((c) => DECISIONS.has(c.type) && c.decision === p.id);
  const mine = p.pivot === me;
  const early = !mine && (p.early || []).includes(me);
  // The rules list what this seat may send now: as the pivot, early, or as
  // a fighter saying it is done bargaining (R10.2b1).
  const canAnswer = answers.length > 0;
  const who = p.pivot === null || p.pivot === undefined ? t("decision.window") : mine ? t("decision.yours") : t("decision.waiting", { name: seatLabel(ts, p.pivot) });
  const silence = t(`silence.${p.topic}`) !== `silence.${p.topic}` ? t(`silence.${p.topic}`) : p.silence;
  const sent = ts.sentFor === answerKey(ts);
  const view = ts.view;
  const context = p.topic === "privilege" && view && view.announcer !== null && view.announcer !== undefined && view.action
    ? t("decision.context_privilege", { name: seatLabel(ts, view.announcer), action: actionLabel(ts, view.action) }) : null;
  const help = canAnswer ? choiceHelp(ts, answers, p.topic) : [];
  // R4.3c: a claim that could not count as things stand says so before it is chosen (own view and public piles only).
  const hopeless = mine && canAnswer ? hopelessClaim(view, p, me, (c) => cardRef().rank(c)) : null;
  // R8.6: the word this seat gave that an answer here keeps or breaks, said before it is chosen.
  const support = canAnswer && view && answers.some((c) => c.type === "Support") ? promisedSupport(view, me) : null;
  const peace = canAnswer && view ? promisedPeace(view, me) : new Map();
  const breaks = (c) => (support || peace.size > 0) && breaksPromise(c, support, peace);
  const peaceAtStake = [...peace.keys()].filter((s) => answers.some((c) => c.action && c.action.kind === "attack" && c.action.target === s));
  // A round whose only answer is a pass: the unconditional auto-pass is offered (R10.2d, R10.2e).
  const onlyPass = mine && answers.length === 1 && answers[0].type === "Pass" && AUTO_PASS.includes(p.topic)
    && !autoTopics().has(p.topic);
  // The head stays on screen while the panel scrolls (a deal being built,
  // on a phone too): the countdown is never out of sight.
  return html`<section class=${`decision${mine ? " mine" : ""}`} aria-label=${t("decision.aria")}>
    <div class="decision-head">
      <h2>${t(`topic.${p.topic}`)} <span class="muted small">${p.rule}</span></h2>
      <p class="who">${who} <${Countdown} prompt=${p} at=${ts.promptAt} bank=${mine} /></p>
    </div>
    ${context && html`<p class="small context">${context}</p>`}
    ${(p.done || []).length > 0 && html`<p class="small">${t("decision.done", { list: p.done.map((s) => seatLabel(ts, s)).join(", ") })}</p>`}
    ${(p.published || []).length > 0 && html`<p class="small">${t("decision.so_far")} ${p.published.map(([s, a]) => `${seatLabel(ts, s)}: ${answerText(ts, p.topic, a)}`).join(" · ")}</p>`}
    ${canAnswer && html`<div>
      ${early && html`<p class="small note">${t(p.kind === "window" ? "decision.early_window" : "decision.early")}</p>`}
      ${p.sealed && html`<p class="small sealed">${t("decision.sealed", { answer: choiceLabel(ts, p.sealed, p.topic) })}</p>`}
      <div class="choices" role="group" aria-label=${t("decision.choices")}>
        ${answers.map((c, i) => html`<button type="button" key=${JSON.stringify(c)} class=${`choice ${c.type.toLowerCase()}${c.type === "Claim" && hopeless ? " hopeless" : ""}${breaks(c) ? " breaks" : ""}${support && c.type === "Support" && c.side === support.side ? " promised" : ""}`}
            data-key=${choiceKey(i)} disabled=${sent && mine} onClick=${() => act(ts, c)}
            aria-describedby=${c.type === "Claim" && hopeless ? "hopeless-claim" : undefined}>
          ${choiceKey(i) && html`<kbd aria-hidden="true">${choiceKey(i)}</kbd>`}
          ${c.type === "Choose" ? html`<${Card} card=${c.card} size="s" />` : ""}
          <span>${choiceLabel(ts, c, p.topic)}</span>${c.type === "Claim" && hopeless ? html` <span class="warn" aria-hidden="true">⚠</span>` : ""}${support && c.type === "Support" && c.side === support.side ? html` <span class="tag promised">${t("decision.your_promise")}</span>` : ""}${breaks(c) ? html` <span class="warn" title=${t("decision.breaks_promise")}>⚠ ${t("decision.breaks_promise")}</span>` : ""}</button>`)}
      </div>
      ${support && html`<p class="small warning promise-note" role="note">${t("decision.promised_support", { name: seatLabel(ts, support.promisee), side: t(`side.${support.side}`) })}</p>`}
      ${peaceAtStake.length > 0 && html`<p class="small warning promise-note" role="note">${t("decision.promised_peace", { names: peaceAtStake.map((s) => seatLabel(ts, s)).join(", ") })}</p>`}
      ${hopeless && answers.some((c) => c.type === "Claim") && html`<p class="small warning" id="hopeless-claim" role="note">
        ⚠ ${t("decision.hopeless_claim", { name: seatLabel(ts, hopeless.announcer), mine: hopeless.mine, theirs: hopeless.theirs })}</p>`}
      ${onlyPass && html`<p class="small note only-pass">${t("decision.only_pass")}
        <button type="button" class="link" onClick=${() => setAutoTopic(p.topic, true)}>${t(`decision.auto_offer.${p.topic}`)}</button></p>`}
      ${help.length > 0 && html`<details class="help" open>
        <summary>${t("decision.help")}</summary>
        <dl>${help.map(([term, text]) => html`<div key=${term}><dt>${term}</dt><dd>${text}</dd></div>`)}</dl>
      </details>`}
    </div>`}
    ${ts.seated && html`<${Offers} ts=${ts} /><${QuickDeal} ts=${ts} /><${MyDeals} ts=${ts} />`}
    <p class="small muted">${t("decision.silence", { what: silence })}</p>
  </section>`;
}

// -- the end ---------------------------------------------------------------------------

// The end, ranking first: each seat's rank, points and the cards they come
// from (its score pile and its inhabitant, R9.3), then every tie on points
// and the card that broke it (R9.4), then the way on (rematch, replay).
export function Result({ ts, view }) {
  const t = app.t;
  const r = (view && view.result) || (ts.info && ts.info.result);
  if (!r) return null;
  const order = r.scores.map((_, s) => s).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
  const ties = tieBreaks(r);
  const scored = (s) => {
    const pile = view && view.seats && view.seats[s] ? [...(view.seats[s].pile || [])] : [];
    const inh = r.inhabitants[s];
    const cards = inh !== null && inh !== undefined && cardRef().kind(inh) !== "geisha" ? [...pile, inh] : pile;
    return cards.sort((x, y) => (cardRef().value(y) || 0) - (cardRef().value(x) || 0));
  };
  const nth = (k) => t("result.nth", { n: k + 1 });
  return html`<section class="result" aria-label=${t("result.aria")}>
    <h2>${t("result.title")}</h2>
    <table class="ranking">
      <thead><tr><th>${t("result.rank")}</th><th>${t("result.player")}</th><th>${t("result.score")}</th><th>${t("result.breakdown")}</th></tr></thead>
      <tbody>${order.map((s) => {
        const cards = scored(s);
        return html`<tr key=${s} class=${s === ts.you ? "me" : ""}><td class="rank">${r.ranks[s]}</td><td>${seatLabel(ts, s)}</td>
          <td class="points">${r.scores[s]}</td>
          <td class="breakdown">${cards.length ? html`<span class="cards">${cards.map((c) => html`<${Card} key=${c} card=${c} size="s" />`)}</span>
            <span class="sum small">${cards.map((c) => cardRef().value(c) || 0).join(" + ")}${r.inhabitants[s] !== null ? ` (${t("result.with_inhabitant")})` : ""}</span>`
            : html`<span class="muted small">–</span>`}</td></tr>`;
      })}</tbody>
    </table>
    ${ties.length > 0 && html`<ul class="ties small">${ties.map((x, i) => html`<li key=${i}>${x.shared
      ? t("result.tie_shared", { a: seatLabel(ts, x.ahead), b: seatLabel(ts, x.behind), total: x.total })
      : x.b === null ? t("result.tie_runs_out", { a: seatLabel(ts, x.ahead), b: seatLabel(ts, x.behind), total: x.total, nth: nth(x.at) })
        : t("result.tie_card", { a: seatLabel(ts, x.ahead), b: seatLabel(ts, x.behind), total: x.total, nth: nth(x.at), va: x.a, vb: x.b })}</li>`)}</ul>`}
    <p>${cap(narratorOf(ts).reason(r.reason))}.</p>
    ${ts.rematch && html`<p class="rematch-note" role="status">${t("result.rematch_offered", { name: seatLabel(ts, ts.rematch.seat) })}</p>`}
    <p class="actions">
      ${ts.seated ? html`<button type="button" class="primary" onClick=${() => goToRematch(ts)}>
          ${t(ts.rematch ? "result.join_rematch" : "result.rematch")}</button>`
        : ts.rematch && html`<a class="button primary" href=${`#/t/${ts.rematch.table}`}>${t("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${ts.id}${ts.seated ? `?as=${ts.you}` : ""}`}>${t("result.replay")}</a>
      <a class="button" href="#/">${t("nav.lobby")}</a>
    </p>
    <${CardsCheck} ts=${ts} />
  </section>`;
}
