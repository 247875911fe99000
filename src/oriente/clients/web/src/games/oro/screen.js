// Oro's table screen (PROTOCOL.md 18), drawn from the view alone: the
// archipelago as SVG from the view's board (islands sized by kind, bridges
// in the seats' colours and dash patterns, controlled islands marked with
// their controller's marker, god stones in the variant), the display, the
// discard pile with its face-down cards as "???", every hand as far as the
// viewer may know it (its own with who knows each card), and the open
// decision as buttons. A connection on the map narrows the choices to it.
import { h } from "preact";
import htm from "htm";
import { Countdown, seatLabel } from "../../common.js";
import { choiceKey } from "../../keys.js";
import { Badge } from "../../account.js";
import { CardsCheck } from "../../verify.js";
import { act, goToRematch } from "../../live.js";
import { MapFrame, nearest, useZoom } from "../../mapframe.js";
import { answerKey, selection } from "../../state/table.js";
import { app, dispatch } from "../../state.js";
import { useState } from "preact/hooks";

const html = htm.bind(h);

const RADIUS = { small: 3.4, large: 4.6, main: 6.6 };
const DASH = ["", "3 1.4", "0.9 1.1", "3 1 0.9 1"]; // a shape per seat besides its colour
const GOD = { kane: "K", kanaloa: "Ka", ku: "Ku", pele: "P", lono: "L" };
// Pixels per unit of the map's SVG at zoom 1: its smallest text (2.2 units) 12 px high.
const UNIT = 5.6;
const ENDING = ["Draw", "EndTurn", "Pass", "GiveUp", "Remove", "Take", "GiveBack"];

const t = (key, args) => app.t(key, args);

function islandName(view, i) {
  return i === null || i === undefined ? "?" : view.board.islands[i].name;
}

function connName(view, c) {
  const [a, b] = view.board.connections[c];
  return `${islandName(view, a)}–${islandName(view, b)}`;
}

// -- the decision's commands as words --------------------------------------------------

export function oroChoice(ts, view, c) {
  const card = (i) => islandName(view, i);
  switch (c.type) {
    case "GiveUp": return t("oro.choice.GiveUp", { card: card(c.island) });
    case "Build": return c.kanaloa ? t("oro.choice.Build_kanaloa", { conn: connName(view, c.connection) })
      : t("oro.choice.Build", { conn: connName(view, c.connection), card: card(c.island) });
    case "Replace": return t("oro.choice.Replace", { conn: connName(view, c.connection),
      cards: [...c.islands.map(card), ...Array(c.kanaloa).fill("Kanaloa")].join(" + ") });
    case "Discard": return t("oro.choice.Discard", { card: card(c.island) });
    case "Draw": return c.island === null ? t("oro.choice.Draw_deck") : t("oro.choice.Draw", { card: card(c.island) });
    case "EndTurn": return t("oro.choice.EndTurn");
    case "Pass": return t("oro.choice.Pass");
    case "Remove": return t("oro.choice.Remove", { conn: connName(view, c.connection) });
    case "UseKu": return t("oro.choice.UseKu", { name: seatLabel(ts, c.target) });
    case "Take": return t("oro.choice.Take", { card: card(c.island) });
    case "UsePele": return t("oro.choice.UsePele");
    case "GiveBack": return t("oro.choice.GiveBack", { card: card(c.island) });
    case "UseLono": return c.island === null ? t("oro.choice.UseLono_deck") : t("oro.choice.UseLono", { card: card(c.island) });
    default: return c.type;
  }
}

function answersOf(ts) {
  const p = ts.prompt;
  if (!p || !ts.seated) return [];
  const mine = p.pivot === ts.you || ((p.early || []).includes(ts.you) && !p.sealed);
  if (!mine) return [];
  const answers = (p.legal || []).filter((c) => c.decision === p.id);
  const rank = (c) => { const k = ENDING.indexOf(c.type); return k < 0 ? ENDING.length : k; };
  return answers.map((c, i) => [c, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([c]) => c);
}

// -- the archipelago --------------------------------------------------------------------

// A god's name as the reference gives it (Kane), else its id.
function godName(god) {
  const ref = app.refs.oro;
  const g = ref && ref.gods ? ref.gods.find((x) => x.god === god) : null;
  return g ? g.name : god.slice(0, 1).toUpperCase() + god.slice(1);
}

function OroMap({ ts, view, selected, onSelect }) {
  const [zoom, setZoom] = useZoom("oro");
  const [told, setTold] = useState(null); // the connection last reached by the keyboard: said under the map
  const { islands, connections } = view.board;
  const pos = islands.map((isl, i) => isl.pos || [50 + 40 * Math.cos((2 * Math.PI * i) / islands.length), 50 + 40 * Math.sin((2 * Math.PI * i) / islands.length)]);
  const open = new Set(answersOf(ts).filter((c) => c.connection !== undefined).map((c) => c.connection));
  const counts = islands.map(() => ({}));
  connections.forEach(([a, b], c) => {
    const s = view.bridges[c];
    if (s !== null) { counts[a][s] = (counts[a][s] || 0) + 1; counts[b][s] = (counts[b][s] || 0) + 1; }
  });
  const owner = (s) => seatLabel(ts, s);
  // The connections open to a choice, by their middles: the arrow keys move between them.
  const places = connections.map(([a, b], c) => [c, (pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2]).filter((x) => open.has(x[0]));
  const stop = open.has(selected) ? selected : places.length ? places[0][0] : null;
  const onKey = (ev, c) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onSelect(selected === c ? null : c); } else if (ev.key.startsWith("Arrow")) {
      ev.preventDefault();
      const next = nearest(places, c, ev.key);
      const el = next === null ? null : document.querySelector(`.oro-map [data-conn="${next}"]`);
      if (el) { el.focus(); setTold(next); }
    }
  };
  const line = ([a, b], c) => {
    const s = view.bridges[c];
    const [x1, y1] = pos[a], [x2, y2] = pos[b];
    const title = s === null ? t("oro.conn_free", { conn: connName(view, c) }) : t("oro.conn_bridge", { conn: connName(view, c), name: owner(s) });
    const cls = `conn${s === null ? " free" : ` bridge s${s}`}${open.has(c) ? " open" : ""}${selected === c ? " selected" : ""}`;
    const pick = open.has(c) ? { tabindex: c === stop ? "0" : "-1", role: "button", "aria-label": title,
      "aria-pressed": selected === c ? "true" : "false", onKeyDown: (ev) => onKey(ev, c), onFocus: () => setTold(c) } : {};
    return html`<g key=${`c${c}`} class=${cls} data-conn=${c} ...${pick} onClick=${open.has(c) ? () => onSelect(selected === c ? null : c) : undefined}>
      <title>${title}</title>
      <line x1=${x1} y1=${y1} x2=${x2} y2=${y2} class="hit" />
      <line x1=${x1} y1=${y1} x2=${x2} y2=${y2} class="shown" stroke-dasharray=${s === null ? undefined : DASH[s] || undefined} />
    </g>`;
  };
  const island = (isl, i) => {
    const [x, y] = pos[i];
    const r = RADIUS[isl.size] || 4;
    const ctrl = view.control[i];
    const held = Object.entries(counts[i]).map(([s, n]) => `${owner(Number(s))} ×${n}`).join(", ");
    const title = t("oro.island_title", { name: isl.name, size: t(`oro.size.${isl.size}`), places: isl.places })
      + (held ? ` — ${held}` : "") + (ctrl !== null ? ` — ${t("oro.control_by", { name: owner(ctrl) })}` : "");
    const stone = view.stones ? view.stones[i] : null;
    return html`<g key=${`i${i}`} class=${`island i-${isl.size}${ctrl !== null ? ` ctrl s${ctrl}` : ""}`} data-island=${i}>
      <title>${title}</title>
      <circle cx=${x} cy=${y} r=${r} />
      <text x=${x} y=${y + r + 2.6} class="name">${isl.name}</text>
      <text x=${x} y=${y + 0.9} class="places">${isl.places}</text>
      ${ctrl !== null && html`<g class=${`marker s${ctrl}`}><rect x=${x + r * 0.55} y=${y - r - 1.6} width="3.2" height="3.2" rx="0.5" />
        <text x=${x + r * 0.55 + 1.6} y=${y - r + 0.85} class="mk">${ctrl}</text></g>`}
      ${stone && html`<g class="god"><circle cx=${x - r * 0.8} cy=${y - r * 0.8} r="2.3" />
        <text x=${x - r * 0.8} y=${y - r * 0.8 + 0.8} class="gd">${GOD[stone] || "?"}</text><title>${godName(stone)}</title></g>`}
    </g>`;
  };
  return html`<figure class="oro-map" aria-label=${t("oro.map")}>
    <${MapFrame} zoom=${zoom} setZoom=${setZoom} label=${t("oro.map")}>
      <svg viewBox="-6 -6 112 114" width=${Math.round(112 * UNIT * zoom)} height=${Math.round(114 * UNIT * zoom)} aria-label=${t("oro.map")}>
        <g class="conns">${connections.map(line)}</g>
        <g class="islands">${islands.map(island)}</g>
      </svg>
    <//>
    <figcaption class="small">${told !== null && open.has(told) ? html`<span class="conn-told" aria-live="polite">${connName(view, told)}</span>`
      : open.size > 0 ? html`<span class="muted">${t("oro.map_hint")}</span>` : ""}</figcaption>
    <${OroLegend} gods=${Boolean(view.gods)} />
  </figure>`;
}

// Every symbol of the map and the hands in words: under the map (a tap opens it) and in the reference.
export function OroLegend({ gods = true, open = false }) {
  return html`<details class="legend" open=${open}>
    <summary>${t("map.legend")}</summary>
    <p class="small">${t("oro.legend.places")}</p>
    <p class="small">${t("oro.legend.marker")}</p>
    <p class="small">${t("oro.legend.bridges")}</p>
    ${gods && html`<p class="small">${t("oro.legend.gods")} ${Object.entries(GOD).map(([g, k]) => html`<span key=${g} class="sym god-sym"><b>${k}</b> ${godName(g)}</span>`)}</p>`}
    <p class="small">${t("oro.legend.dots")}</p>
    <p class="small">${t("oro.legend.hidden")}</p>
    <p class="small muted">${t("map.keys")}</p>
  </details>`;
}

// -- cards, hands, display, discard ------------------------------------------------------

function Chip({ view, island, knownTo = null, ts = null }) {
  const size = view.board.islands[island].size;
  const who = knownTo === null ? null
    : knownTo.length ? t("oro.known_to", { list: knownTo.map((s) => seatLabel(ts, s)).join(", ") }) : t("oro.known_to_none");
  return html`<span class=${`chip i-${size}`} title=${who || ""}>${islandName(view, island)}
    ${knownTo && knownTo.map((s) => html`<span key=${s} class=${`dot s${s}`} aria-hidden="true"></span>`)}
    ${who && html`<span class="sr-only">${who}</span>`}</span>`;
}

function Hands({ ts, view }) {
  const p = ts.prompt || view.decision;
  return html`<div class="oro-seats">${view.hands.map((hand) => {
    const s = hand.seat;
    const controlled = view.control.filter((c) => c === s).length;
    const held = view.held ? Object.entries(view.held[s]).filter(([, n]) => n > 0) : [];
    const unknown = hand.cards ? 0 : hand.size - hand.known.length;
    return html`<section key=${s} class=${`oro-seat s${s}${s === ts.you ? " me" : ""}${p && p.pivot === s ? " pivot" : ""}`}
        aria-label=${t("seat.aria", { name: seatLabel(ts, s), n: s })}>
      <header><span class=${`swatch s${s}`} aria-hidden="true"></span><b>${seatLabel(ts, s)}</b>
        ${ts.info && ts.info.seats && ts.info.seats[s] && html`<${Badge} account=${ts.info.seats[s].account} />`}
        <span class="pts">${t("oro.score", { n: view.scores[s] })}</span>
        <span class="small muted">${t("oro.islands", { n: controlled })}</span>
        ${p && p.pivot === s && ts.prompt && html`<${Countdown} prompt=${ts.prompt} at=${ts.promptAt} />`}</header>
      <div class="small">${t("oro.hand", { n: hand.size })}</div>
      ${hand.cards ? html`<div class="chips mine">${hand.cards.map((c, k) => html`<${Chip} key=${k} view=${view} island=${c} knownTo=${hand.known_to[k]} ts=${ts} />`)}</div>`
        : html`<div class="chips">${hand.known.map((c, k) => html`<${Chip} key=${k} view=${view} island=${c} />`)}
            ${unknown > 0 && html`<span class="chip unknown" title=${t("oro.unknown_cards", { n: unknown })}>? ×${unknown}</span>`}</div>`}
      ${held.length > 0 && html`<div class="small">${t("oro.stones", { list: held.map(([g, n]) => `${g.slice(0, 1).toUpperCase()}${g.slice(1)}${n > 1 ? ` ×${n}` : ""}`).join(", ") })}</div>`}
    </section>`;
  })}</div>`;
}

function Table({ ts, view }) {
  const open = view.discard.open.map((n, i) => [i, n]).filter(([, n]) => n > 0);
  const final = view.final;
  return html`<div class="oro-table">
    <div class="line"><b>${t(`oro.half_${view.half}`)}</b>${view.active !== null ? html` · ${t("oro.turn_of", { name: seatLabel(ts, view.active) })}` : ""}
      ${view.gods && html` · <span class="tag">${t("oro.gods")}</span>`}</div>
    <div class="oro-display"><span class="small muted">${t("oro.display")}</span>
      <div class="chips">${view.display.map((c, k) => html`<${Chip} key=${k} view=${view} island=${c} />`)}</div>
      <span class="small">${t("oro.deck", { n: view.deck_size })}</span></div>
    <div class="oro-discard"><span class="small muted">${t("oro.discard")}</span>
      <div class="chips">${open.map(([i, n]) => html`<span key=${i} class="chip played">${islandName(view, i)}${n > 1 ? ` ×${n}` : ""}</span>`)}
        ${view.discard.hidden > 0 && html`<span class="chip hidden" title=${t("oro.hidden_cards", { n: view.discard.hidden })}>??? ×${view.discard.hidden}</span>`}</div>
      ${view.my_hidden && view.my_hidden.length > 0 && html`<span class="small">${t("oro.my_hidden", { list: view.my_hidden.map((c) => islandName(view, c)).join(", ") })}</span>`}</div>
    ${final && html`<div class="small">${t("oro.final_owed", { list: final.owed.map((s) => seatLabel(ts, s)).join(", ") || "–" })}</div>`}
  </div>`;
}

// The connection picked on the map (selection) narrows the choices of the
// decision it was picked in; a new prompt forgets it.
export function OroStage({ ts, view }) {
  if (!view) return html`<div class="board"><p>${t("board.waiting")}</p></div>`;
  const select = (c) => dispatch({ type: "table/select", table: ts.id, value: c });
  return html`<div class="oro">
    <${OroMap} ts=${ts} view=${view} selected=${selection(ts)} onSelect=${select} />
    <div class="oro-side"><${Table} ts=${ts} view=${view} /><${Hands} ts=${ts} view=${view} /></div>
  </div>`;
}

// -- the decision ------------------------------------------------------------------------

export function OroDecision({ ts }) {
  const p = ts.prompt;
  const view = ts.view;
  if (!p || !view) {
    const status = ts.info ? ts.info.status : "open";
    return html`<section class="decision idle" aria-label=${t("decision.aria")}>
      <p>${status === "open" ? t("decision.waiting_players") : status === "finished" ? t("decision.over") : t("decision.none")}</p></section>`;
  }
  const mine = p.pivot === ts.you;
  let answers = answersOf(ts);
  const conn = selection(ts);
  const narrowed = conn !== null && conn !== undefined && answers.some((c) => c.connection === conn);
  if (narrowed) answers = answers.filter((c) => c.connection === conn);
  const who = mine ? t("decision.yours") : t("decision.waiting", { name: seatLabel(ts, p.pivot) });
  const silence = t(`oro.silence.${p.topic}`);
  const sent = ts.sentFor === answerKey(ts);
  return html`<section class=${`decision${mine ? " mine" : ""}`} aria-label=${t("decision.aria")}>
    <h2>${t(`oro.topic.${p.topic}`)} <span class="muted small">${p.rule}</span></h2>
    <p class="who">${who} <${Countdown} prompt=${p} at=${ts.promptAt} bank=${mine} /></p>
    ${p.limit !== undefined && mine && html`<p class="small">${t("oro.limit", { n: p.limit })}</p>`}
    ${p.sealed && html`<p class="small sealed">${t("decision.sealed", { answer: oroChoice(ts, view, p.sealed) })}</p>`}
    ${!mine && answers.length > 0 && html`<p class="small note">${t("decision.early")}</p>`}
    ${narrowed && html`<p class="small">${t("oro.on_conn", { conn: connName(view, conn) })}
      <button type="button" class="small" onClick=${() => dispatch({ type: "table/select", table: ts.id, value: null })}>${t("oro.show_all")}</button></p>`}
    ${answers.length > 0 && html`<div class="choices" role="group" aria-label=${t("decision.choices")}>
      ${answers.map((c, i) => html`<button type="button" key=${JSON.stringify(c)} class=${`choice ${c.type.toLowerCase()}`} data-key=${choiceKey(i)}
          disabled=${sent} onClick=${() => { dispatch({ type: "table/select", table: ts.id, value: null }); act(ts, c); }}>
        ${choiceKey(i) && html`<kbd aria-hidden="true">${choiceKey(i)}</kbd>`}<span>${oroChoice(ts, view, c)}</span></button>`)}
    </div>`}
    <p class="small muted">${t("decision.silence", { what: silence !== `oro.silence.${p.topic}` ? silence : p.silence })}</p>
  </section>`;
}

// -- the end, and the reference ----------------------------------------------------------

export function OroResult({ ts, view }) {
  const r = (view && view.result) || (ts.info && ts.info.result);
  if (!r) return null;
  const order = r.scores.map((_, s) => s).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
  return html`<section class="result" aria-label=${t("result.aria")}>
    <h2>${t("result.title")}</h2>
    <p>${t(r.reason === "eleven" ? "oro.result_eleven" : "oro.result_scoring")}</p>
    <table>
      <thead><tr><th>${t("result.rank")}</th><th>${t("result.player")}</th><th>${t("result.score")}</th></tr></thead>
      <tbody>${order.map((s) => html`<tr key=${s} class=${s === ts.you ? "me" : ""}><td>${r.ranks[s]}</td><td>${seatLabel(ts, s)}</td><td>${r.scores[s]}</td></tr>`)}</tbody>
    </table>
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

export function OroReference() {
  const ref = app.refs.oro;
  const lang = app.lang;
  if (!ref) return null;
  return html`<div class="reference">
    <p class="muted">${t("oro.ref.scoring")}</p>
    <table class="scoring">
      <thead><tr><th>${t("oro.ref.island")}</th><th>${t("oro.ref.bridges")}</th><th>${t("oro.ref.first")}</th><th>${t("oro.ref.final")}</th></tr></thead>
      <tbody>${ref.sizes.flatMap((size) => size.scoring.map((row, k) => html`<tr key=${`${size.size}${row.bridges}`}>
        <td>${k === 0 ? `${t(`oro.size.${size.size}`)} (${size.places})` : ""}</td><td>${row.bridges}</td><td>${row.first}</td><td>${row.final}</td></tr>`))}</tbody>
    </table>
    <h3>${t("oro.gods")}</h3>
    <ul class="kinds">${ref.gods.map((g) => html`<li key=${g.god} id=${`ref-${g.god}`}><div>
      <h3><span class="god-letter">${GOD[g.god] || ""}</span> ${g.name} <span class="muted">×${g.count} · ${g.rule}</span></h3><p>${g.text[lang] ?? g.text.en}</p></div></li>`)}</ul>
    <${OroLegend} open=${true} />
  </div>`;
}
