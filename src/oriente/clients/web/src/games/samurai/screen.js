// Samurai's table screen (PROTOCOL.md 20), drawn from the view alone: the
// map as SVG from the view's board (sea, land, villages, cities and Edo as
// hexes; the figures on each settlement; every tile on the board in its
// owner's colour with its kind and strength), your screen (your hand and
// supply, your captured figures), the other seats as far as the viewer may
// know them (captures behind the screen at 3 and 4 players, S7.4), and the
// open decision as buttons. The secret tile choice is a picker of 5 of the
// 20 tiles (S2.3, S7.2). A hex picked on the map narrows the choices to it.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { Countdown, seatLabel } from "../../common.js";
import { choiceKey } from "../../keys.js";
import { act, goToRematch, narratorOf } from "../../live.js";
import { MapFrame, nearest, useZoom } from "../../mapframe.js";
import { positions, rowName } from "./squares.js";
import { answerKey, selection } from "../../state/table.js";
import { app, dispatch } from "../../state.js";

const html = htm.bind(h);

const FIGURES = ["helmet", "buddha", "rice"];
const FIG_MARK = { helmet: "H", buddha: "B", rice: "R" };
const KIND_MARK = { helmet: "H", buddha: "B", rice: "R", samurai: "S", ronin: "Ro", ship: "Sh", figure_swap: "⇄F", tile_swap: "⇄T" };
const ENDING = ["EndTurn", "Pass"];
const MANY = 60; // more choices than this on one hex: the rest below a line
const FEW = 12; // more choices on the map than this: a hex is picked first (the map or the list), then its choices
const R = 3.2; // the hexes' circumradius in the SVG's units

const t = (key, args) => app.t(key, args);

// A hex as the story and the terminal name it: "Kyoto (K12)", "village K7", "K12".
export function hexName(ts, id) {
  return narratorOf(ts).hex(id);
}

const figure = (f) => t(`sam.fig.${f}`);
const kindName = (k) => t(`sam.kind.${k}`);

export function tileName(view, i) {
  const tile = view.tile_set.tiles[i];
  if (!tile) return String(i);
  const base = tile.strength === null || tile.kind === "figure_swap" || tile.kind === "tile_swap"
    ? kindName(tile.kind) : `${kindName(tile.kind)} ${tile.strength}`;
  return tile.fast ? `${base} ✦` : base;
}

// -- the decision's commands as words --------------------------------------------------

export function samChoice(ts, view, c) {
  switch (c.type) {
    case "ChooseTiles": return t("sam.choice.ChooseTiles", { tiles: c.tiles.map((i) => tileName(view, i)).join(", ") });
    case "PlaceFigure": return t("sam.choice.PlaceFigure", { figure: figure(c.figure), hex: hexName(ts, c.hex) });
    case "PlaceTile": return t("sam.choice.PlaceTile", { tile: tileName(view, c.tile), hex: hexName(ts, c.hex) });
    case "SwapFigures": return t("sam.choice.SwapFigures", { a: figure(c.figure_a), hex_a: hexName(ts, c.hex_a),
      b: figure(c.figure_b), hex_b: hexName(ts, c.hex_b) });
    case "SwapTile": {
      const there = view.tiles.find((x) => x.hex === c.hex);
      return t("sam.choice.SwapTile", { hex: hexName(ts, c.hex), moved: there ? tileName(view, there.tile) : "?", to: hexName(ts, c.to) });
    }
    case "EndTurn": return t("sam.choice.EndTurn");
    case "Pass": return t("sam.choice.Pass");
    default: return c.type;
  }
}

const hexesOf = (c) => [c.hex, c.to, c.hex_a, c.hex_b].filter((x) => x !== undefined);

function answersOf(ts) {
  const p = ts.prompt;
  if (!p || !ts.seated || p.pivot !== ts.you) return [];
  const answers = (p.legal || []).filter((c) => c.decision === p.id);
  const rank = (c) => { const k = ENDING.indexOf(c.type); return k < 0 ? ENDING.length : k; };
  return answers.map((c, i) => [c, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([c]) => c);
}

// The tile choice is open to this seat: it is asked and its choice is not final (S7.2).
function choosing(ts) {
  const p = ts.prompt;
  return Boolean(p && p.topic === "select" && ts.seated && p.choose && (p.asked || []).includes(ts.you)
    && !(p.final || []).includes(ts.you));
}

// -- the map ----------------------------------------------------------------------------

// Pixels per unit of the SVG at zoom 1: a hex (√3·R units across) 44 px
// across, so that every label below (at least 1.55 units) is 12 px or more.
const UNIT = 44 / (Math.sqrt(3) * R);

function centre(hx) {
  return [R * Math.sqrt(3) * (hx.q + hx.r / 2), R * 1.5 * hx.r];
}

function corners(x, y) {
  return [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(x + R * Math.cos(a)).toFixed(2)},${(y + R * Math.sin(a)).toFixed(2)}`;
  }).join(" ");
}

// Where the figures of a settlement stand in its hex: up to three, none on its name.
function figureSpots(x, y, n) {
  if (n === 0) return [];
  if (n === 1) return [[x, y - 0.4]];
  if (n === 2) return [[x - 1.1, y - 0.4], [x + 1.1, y - 0.4]];
  return [[x - 1.1, y - 1.1], [x + 1.1, y - 1.1], [x, y + 0.7]];
}

// A hex in words, for its title (hover), the line under the map (a tap or
// the keyboard's focus) and a screen reader: its name, its ground, what is on it.
function hexWords(ts, view, hx, figs, tile) {
  return [hexName(ts, hx.id), t(`sam.terrain.${hx.terrain}`),
    figs.length ? figs.map(figure).join(", ") : "",
    tile ? t("sam.tile_of", { tile: tileName(view, tile.tile), name: seatLabel(ts, tile.seat) }) : ""].filter(Boolean).join(" — ");
}

function SamuraiMap({ ts, view, selected, onSelect }) {
  const [zoom, setZoom] = useZoom("samurai");
  const [told, setTold] = useState(null); // the hex last tapped or reached by the keyboard: said under the map
  const hexes = view.board.hexes;
  const points = hexes.map(centre);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  // Room on the left and the top for the rows' letters and the columns' numbers.
  const [x0, x1, y0, y1] = [Math.min(...xs) - R - 3, Math.max(...xs) + R + 1, Math.min(...ys) - R - 3, Math.max(...ys) + R + 1];
  const open = new Set(answersOf(ts).flatMap(hexesOf));
  const figuresAt = new Map(view.figures.map((f) => [f.hex, f.figures]));
  const tileAt = new Map(view.tiles.map((x) => [x.hex, x]));
  const places = hexes.map((hx, i) => [hx.id, points[i][0], points[i][1]]).filter((p) => open.has(p[0]));
  // One tab stop for the map: the picked hex, else the first open one; the arrows move from there.
  const stop = open.has(selected) ? selected : places.length ? places[0][0] : null;
  // A hex picked in the list (or on the map) is scrolled into the map's frame.
  useEffect(() => {
    const el = selected === null ? null : document.querySelector(`.sam-map [data-hex="${selected}"]`);
    if (el && el.scrollIntoView) el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [selected]);
  const focusHex = (id) => {
    const el = document.querySelector(`.sam-map [data-hex="${id}"]`);
    if (el) el.focus();
  };
  const onKey = (ev, id) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      onSelect(selected === id ? null : id);
    } else if (ev.key.startsWith("Arrow")) {
      const next = nearest(places, id, ev.key);
      ev.preventDefault();
      if (next !== null) { focusHex(next); setTold(next); }
    }
  };
  const hex = (hx, i) => {
    const [x, y] = points[i];
    const tile = tileAt.get(hx.id);
    const figs = figuresAt.get(hx.id) || [];
    const words = hexWords(ts, view, hx, figs, tile);
    const canPick = open.has(hx.id);
    const cls = `hex ${hx.terrain}${tile ? ` tiled s${tile.seat}` : ""}${canPick ? " open" : ""}${selected === hx.id ? " selected" : ""}`;
    const pick = canPick ? { tabindex: hx.id === stop ? "0" : "-1", role: "button", "aria-label": words,
      "aria-pressed": selected === hx.id ? "true" : "false",
      onKeyDown: (ev) => onKey(ev, hx.id), onFocus: () => setTold(hx.id) } : {};
    return html`<g key=${hx.id} class=${cls} data-hex=${hx.id} ...${pick}
        onClick=${() => { setTold(hx.id); if (canPick) onSelect(selected === hx.id ? null : hx.id); }}>
      <title>${words}</title>
      <polygon points=${corners(x, y)} />
      ${hx.terrain === "village" && !tile && !figs.length && html`<circle cx=${x} cy=${y} r="0.55" class="village-dot" />`}
      ${tile && html`<text x=${x} y=${y + 0.3} class="tk">${KIND_MARK[tile.kind] || "?"}</text>
        <text x=${x} y=${y + 2.1} class="ts">${tile.strength ?? ""}${view.tile_set.tiles[tile.tile] && view.tile_set.tiles[tile.tile].fast ? "✦" : ""}</text>`}
      ${figureSpots(x, y, figs.length).map(([fx, fy], k) => html`<g key=${k} class=${`fig ${figs[k]}`}>
        <circle cx=${fx} cy=${fy} r="1.05" /><text x=${fx} y=${fy + 0.55} class="fk">${FIG_MARK[figs[k]]}</text></g>`)}
    </g>`;
  };
  // Names last, above every hex, so that no neighbour covers them.
  const label = (hx, i) => hx.name && html`<text key=${`n${hx.id}`} x=${points[i][0]} y=${points[i][1] + R * 0.98} class="name">${hx.name}</text>`;
  // The squares' rulers: a row's letter at its left, a column's number at the top (squares.js).
  const pos = positions(hexes);
  const rows = new Map(), cols = new Map();
  hexes.forEach((hx, i) => {
    const [r, c] = pos.get(hx.id);
    if (!rows.has(r)) rows.set(r, points[i][1]);
    if (!(hx.r & 1) && !cols.has(c)) cols.set(c, points[i][0]);
  });
  const w = x1 - x0, hgt = y1 - y0;
  const hovered = told !== null ? hexes.find((hx) => hx.id === told) : null;
  return html`<figure class="sam-map" aria-label=${t("sam.map")}>
    <${MapFrame} zoom=${zoom} setZoom=${setZoom} label=${t("sam.map")}>
      <svg viewBox=${`${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`}
          width=${Math.round(w * UNIT * zoom)} height=${Math.round(hgt * UNIT * zoom)} aria-label=${t("sam.map")}>
        <g class="rulers" aria-hidden="true">
          ${[...rows].map(([r, y]) => html`<text key=${`r${r}`} x=${x0 + 1.2} y=${y + 0.6} class="rule">${rowName(r)}</text>`)}
          ${[...cols].map(([c, x]) => html`<text key=${`c${c}`} x=${x} y=${y0 + 1.9} class="rule">${c + 1}</text>`)}
        </g>
        ${hexes.map(hex)}
        <g class="names" aria-hidden="true">${hexes.map(label)}</g>
      </svg>
    <//>
    <figcaption class="small">
      ${hovered ? html`<span class="hex-told" aria-live="polite">${hexWords(ts, view, hovered, figuresAt.get(hovered.id) || [], tileAt.get(hovered.id))}</span>`
        : open.size > 0 ? html`<span class="muted">${t("sam.map_hint")}</span>` : ""}
    </figcaption>
    <${SamuraiLegend} />
  </figure>`;
}

// Every symbol of the map in words: under the map (a tap opens it) and in the reference.
export function SamuraiLegend({ open = false }) {
  const tiles = ["helmet", "buddha", "rice", "samurai", "ronin", "ship", "figure_swap", "tile_swap"];
  return html`<details class="legend" open=${open}>
    <summary>${t("map.legend")}</summary>
    <p class="small">${t("sam.legend.squares")}</p>
    <p class="small">${t("sam.legend.tiles")} ${tiles.map((k) => html`<span key=${k} class="sym"><b>${KIND_MARK[k]}</b> ${kindName(k)}</span>`)}</p>
    <p class="small">${t("sam.legend.figures")} ${FIGURES.map((f) => html`<span key=${f} class=${`sym fig-sym ${f}`}><b>${FIG_MARK[f]}</b> ${figure(f)}</span>`)}</p>
    <p class="small">${t("sam.legend.fast")}</p>
    <p class="small">${t("sam.legend.terrain")} ${["sea", "land", "village", "city", "capital"].map((k) => html`<span key=${k} class=${`sym terrain ${k}`}><i aria-hidden="true"></i> ${t(`sam.terrain.${k}`)}</span>`)}</p>
    <p class="small">${t("sam.legend.open")}</p>
    <p class="small muted">${t("map.keys")}</p>
  </details>`;
}

// -- tiles, screens, seats ----------------------------------------------------------------

function TileChip({ view, index, picked = false, onClick = null }) {
  const tile = view.tile_set.tiles[index];
  const cls = `tile k-${tile.kind}${tile.fast ? " fast" : ""}${picked ? " picked" : ""}`;
  const label = tileName(view, index);
  if (onClick) {
    return html`<button type="button" class=${cls} aria-pressed=${picked} title=${label} onClick=${onClick}>${label}</button>`;
  }
  return html`<span class=${cls} title=${label}>${label}</span>`;
}

function Captured({ counts }) {
  if (!counts) return html`<span class="small muted">${t("sam.behind_screen")}</span>`;
  return html`<span class="small">${FIGURES.map((f) => `${figure(f)} ${counts[f]}`).join(" · ")}</span>`;
}

function Seats({ ts, view }) {
  const p = ts.prompt || view.decision;
  return html`<div class="sam-seats">${view.players.map((pl) => {
    const s = pl.seat;
    const known = pl.hand.filter((x) => x !== null);
    return html`<section key=${s} class=${`sam-seat s${s}${s === ts.you ? " me" : ""}${p && p.pivot === s ? " pivot" : ""}`}
        aria-label=${t("seat.aria", { name: seatLabel(ts, s), n: s })}>
      <header><span class=${`swatch s${s}`} aria-hidden="true"></span><b>${seatLabel(ts, s)}</b>
        ${p && p.pivot === s && ts.prompt && html`<${Countdown} prompt=${ts.prompt} at=${ts.promptAt} />`}</header>
      <div class="small">${t("sam.hand", { n: pl.hand_size })} · ${t("sam.supply", { n: pl.supply_size })}</div>
      ${known.length > 0 && html`<div class="tiles mine">${known.map((i) => html`<${TileChip} key=${i} view=${view} index=${i} />`)}</div>`}
      <div><span class="small muted">${t("sam.captured")}</span> <${Captured} counts=${pl.captured} /></div>
    </section>`;
  })}</div>`;
}

function Status({ ts, view }) {
  const cur = view.current;
  return html`<div class="sam-table">
    <div class="line"><b>${t(`sam.phase.${view.phase}`)}</b>
      ${cur ? html` · ${t("sam.turn_of", { n: view.turn, name: seatLabel(ts, cur.seat) })}` : ""}</div>
    ${view.phase === "figures" && html`<div class="small">${t("sam.figure_supply", { list: FIGURES.map((f) => `${figure(f)} ${view.figure_supply[f]}`).join(" · ") })}</div>`}
    <div class="small">${t("sam.set_aside", { list: FIGURES.map((f) => `${figure(f)} ${view.set_aside[f]}`).join(" · ") })}</div>
    <div class="small muted">${view.board.name} · ${view.tile_set.name}</div>
  </div>`;
}


export function SamuraiStage({ ts, view }) {
  if (!view) return html`<div class="board"><p>${t("board.waiting")}</p></div>`;
  const select = (hx) => dispatch({ type: "table/select", table: ts.id, value: hx });
  return html`<div class="sam">
    <${SamuraiMap} ts=${ts} view=${view} selected=${selection(ts)} onSelect=${select} />
    <div class="sam-side"><${Status} ts=${ts} view=${view} /><${Seats} ts=${ts} view=${view} /></div>
  </div>`;
}

// -- the decision ------------------------------------------------------------------------

function TilePicker({ ts, view }) {
  const p = ts.prompt;
  const want = p.choose.count;
  const key = `pick/${p.id}`;
  // The tiles picked so far, for this decision (a new one starts from its sealed choice).
  const [pick, setPick] = useState({ key, tiles: p.sealed ? [...p.sealed] : [] });
  const picked = pick.key === key ? pick.tiles : p.sealed ? [...p.sealed] : [];
  const toggle = (i) => {
    const tiles = picked.includes(i) ? picked.filter((x) => x !== i) : picked.length < want ? [...picked, i] : picked;
    setPick({ key, tiles });
  };
  const send = () => act(ts, { type: p.choose.command, decision: p.id, tiles: [...picked].sort((a, b) => a - b) });
  return html`<div class="sam-pick">
    <p class="small">${t("sam.pick_hint", { n: want, k: picked.length })}</p>
    <div class="tiles" role="group" aria-label=${t("sam.pick")}>
      ${p.choose.tiles.map((i) => html`<${TileChip} key=${i} view=${view} index=${i} picked=${picked.includes(i)} onClick=${() => toggle(i)} />`)}
    </div>
    <p><button type="button" class="primary" disabled=${picked.length !== want} onClick=${send}>${t("sam.pick_send", { n: want })}</button></p>
  </div>`;
}

// The hexes open to a choice, as a list: the map's choices for a keyboard
// or a screen reader, in the squares' order (A1, A2, … B1 …).
function HexList({ ts, view, answers, selected, sent }) {
  const pos = positions(view.board.hexes);
  const ids = [...new Set(answers.flatMap(hexesOf))].filter((id) => pos.has(id))
    .sort((a, b) => pos.get(a)[0] - pos.get(b)[0] || pos.get(a)[1] - pos.get(b)[1]);
  const pick = (e) => dispatch({ type: "table/select", table: ts.id, value: e.target.value === "" ? null : Number(e.target.value) });
  return html`<label class="field inline hex-list">${t("sam.pick_hex")}
    <select id="sam-hex" value=${selected === null ? "" : String(selected)} disabled=${sent} onChange=${pick}>
      <option value="">${t("sam.pick_hex_none")}</option>
      ${ids.map((id) => html`<option key=${id} value=${String(id)}>${hexName(ts, id)}</option>`)}
    </select></label>`;
}

export function SamuraiDecision({ ts }) {
  const p = ts.prompt;
  const view = ts.view;
  if (!p || !view) {
    const status = ts.info ? ts.info.status : "open";
    return html`<section class="decision idle" aria-label=${t("decision.aria")}>
      <p>${status === "open" ? t("decision.waiting_players") : status === "finished" ? t("decision.over") : t("decision.none")}</p></section>`;
  }
  const mine = p.pivot === ts.you;
  const all = answersOf(ts);
  let answers = all;
  const hx = selection(ts);
  const narrowed = hx !== null && hx !== undefined && answers.some((c) => hexesOf(c).includes(hx));
  if (narrowed) answers = answers.filter((c) => hexesOf(c).includes(hx) || ENDING.includes(c.type));
  // Hundreds of "tile on hex" buttons help nobody: past a few, a hex is picked first.
  const onMap = all.filter((c) => hexesOf(c).length > 0);
  const pickFirst = !narrowed && onMap.length > FEW;
  if (pickFirst) answers = all.filter((c) => hexesOf(c).length === 0);
  const more = answers.length > MANY ? answers.length - MANY : 0;
  if (more) answers = answers.slice(0, MANY);
  const who = mine ? t("decision.yours") : t("decision.waiting", { name: seatLabel(ts, p.pivot) });
  const silence = t(`sam.silence.${p.topic}`);
  const sent = ts.sentFor === answerKey(ts);
  const picking = choosing(ts);
  return html`<section class=${`decision${mine || picking ? " mine" : ""}`} aria-label=${t("decision.aria")}>
    <h2>${t(`sam.topic.${p.topic}`)} <span class="muted small">${p.rule}</span></h2>
    <p class="who">${who} <${Countdown} prompt=${p} at=${ts.promptAt} bank=${mine} /></p>
    ${p.topic === "turn" && mine && html`<p class="small">${t(p.plain_used ? "sam.plain_used" : "sam.plain_free", { n: p.placed })}</p>`}
    ${p.sealed && html`<p class="small sealed">${t("decision.sealed", { answer: samChoice(ts, view, { type: "ChooseTiles", tiles: p.sealed }) })}</p>`}
    ${picking && !mine && html`<p class="small note">${t("decision.early")}</p>`}
    ${picking && html`<${TilePicker} ts=${ts} view=${view} />`}
    ${pickFirst && html`<p class="small">${t("sam.pick_first")}</p>`}
    ${onMap.length > FEW && html`<${HexList} ts=${ts} view=${view} answers=${onMap} selected=${narrowed ? hx : null} sent=${sent} />`}
    ${narrowed && html`<p class="small">${t("sam.on_hex", { hex: hexName(ts, hx) })}
      <button type="button" class="small" onClick=${() => dispatch({ type: "table/select", table: ts.id, value: null })}>${t("sam.show_all")}</button></p>`}
    ${answers.length > 0 && html`<div class="choices" role="group" aria-label=${t("decision.choices")}>
      ${answers.map((c, i) => html`<button type="button" key=${JSON.stringify(c)} class=${`choice ${c.type.toLowerCase()}`} data-key=${choiceKey(i)}
          disabled=${sent} onClick=${() => { dispatch({ type: "table/select", table: ts.id, value: null }); act(ts, c); }}>
        ${choiceKey(i) && html`<kbd aria-hidden="true">${choiceKey(i)}</kbd>`}<span>${samChoice(ts, view, c)}</span></button>`)}
    </div>`}
    ${more > 0 && html`<p class="small muted">${t("sam.more", { n: more })}</p>`}
    <p class="small muted">${t("decision.silence", { what: silence !== `sam.silence.${p.topic}` ? silence : p.silence })}</p>
  </section>`;
}

// -- the end, and the reference ----------------------------------------------------------

export function SamuraiResult({ ts, view }) {
  const r = (view && view.result) || (ts.info && ts.info.result);
  if (!r) return null;
  const order = r.ranks.map((_, s) => s).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
  const majority = (s) => FIGURES.filter((_, k) => r.majorities[k] === s).map(figure).join(", ");
  return html`<section class="result" aria-label=${t("result.aria")}>
    <h2>${t("result.title")}</h2>
    <p>${t(`sam.end.${r.reason}`)} ${r.winners.length ? "" : t("sam.nobody_wins")}</p>
    <table>
      <thead><tr><th>${t("result.rank")}</th><th>${t("result.player")}</th>${FIGURES.map((f) => html`<th key=${f}>${figure(f)}</th>`)}
        <th>${t("sam.majorities")}</th></tr></thead>
      <tbody>${order.map((s) => html`<tr key=${s} class=${s === ts.you ? "me" : ""}><td>${r.ranks[s]}</td><td>${seatLabel(ts, s)}</td>
        ${r.captured[s].map((n, k) => html`<td key=${k}>${n}</td>`)}<td>${majority(s) || "–"}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${ts.seated ? html`<button type="button" class="primary" onClick=${() => goToRematch(ts)}>
          ${t(ts.rematch ? "result.join_rematch" : "result.rematch")}</button>`
        : ts.rematch && html`<a class="button primary" href=${`#/t/${ts.rematch.table}`}>${t("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${ts.id}`}>${t("result.replay")}</a>
      <a class="button" href="#/">${t("nav.lobby")}</a>
    </p>
  </section>`;
}

export function SamuraiReference() {
  const ref = app.refs.samurai;
  const lang = app.lang;
  if (!ref) return null;
  return html`<div class="reference">
    <p class="muted">${t("sam.ref.influence")}</p>
    <table class="scoring">
      <thead><tr><th>${t("sam.ref.tile")}</th><th>${t("sam.ref.influences")}</th></tr></thead>
      <tbody>${ref.kinds.map((k) => html`<tr key=${k.kind}><td>${k.name[lang] ?? k.name.en}</td>
        <td>${k.influences.length ? k.influences.map(figure).join(", ") : "–"}${k.on_sea ? ` (${t("sam.ref.on_sea")})` : ""}</td></tr>`)}</tbody>
    </table>
    <table class="scoring">
      <thead><tr><th>${t("sam.ref.seats")}</th><th>${t("sam.ref.parts")}</th><th>${t("sam.ref.per_kind")}</th></tr></thead>
      <tbody>${ref.players.map((row) => html`<tr key=${row.seats}><td>${row.seats}</td><td>${row.parts.join(", ")}</td><td>${row.figures_per_kind}</td></tr>`)}</tbody>
    </table>
    <p class="muted">${t("sam.ref.end")}</p>
    <${SamuraiLegend} open=${true} />
  </div>`;
}
