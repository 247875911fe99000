// A finished game step by step, forwards and backwards, as any seat saw it,
// as a spectator, or with everything revealed. The server replays the
// record through the rules and projects each step for the chosen viewer
// (/data/replay/ID.json?as=...): the page never judges what is hidden.
// It opens from the seat this browser held at the table (else as a
// spectator), at the step of the event its address names (?seq=N, a line
// of the table's log); it jumps by the game's groups (Oriente: seasons and
// fights, the log's own groups), plays itself at the page's pace, and its
// log is the table's, each line a way back to its step.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { gameUi } from "./games.js";
import { Feed } from "./log.js";
import { DEFAULT_GAP, paceGap } from "./pace.js";
import { newTable, tableWith, UNNAMED_GAME } from "./state/table.js";
import { app, dispatch, seats } from "./state.js";

const html = htm.bind(h);

// The step each event belongs to, by its seq.
function stepsBySeq(data) {
  const at = new Map();
  data.steps.forEach((s, i) => { for (const e of s.events) at.set(e.seq, i); });
  return at;
}

// The places to jump to: each step where the game's log opens a group
// ({step, level, title}), in order.
export function landmarks(data, ts) {
  const group = gameUi(ts.game).logGroup;
  if (!group) return [];
  const out = [];
  data.steps.forEach((s, i) => {
    for (const e of s.events) {
      const g = group(ts, e);
      if (g && g !== "end") out.push({ step: i, level: g.level, title: g.title });
    }
  });
  return out;
}

export function ReplayPage({ id, as, seq = null }) {
  const t = app.t;
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const mine = seats.get(id);
  const viewer = as || (mine && typeof mine.seat === "number" ? String(mine.seat) : "spectator");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setData(null);
    setError(null);
    let gone = false;
    // A server busy building replays (429, 503) says when to ask again
    // (Retry-After): the page waits and asks, a few times, saying so.
    const load = (tries) => fetch(`/data/replay/${encodeURIComponent(id)}.json?as=${encodeURIComponent(viewer)}`)
      .then((r) => {
        if (r.ok) return r.json();
        if ((r.status === 429 || r.status === 503) && tries > 0) {
          const wait = Math.min(30, Math.max(1, Number(r.headers.get("Retry-After")) || 2));
          setBusy(true);
          return new Promise((done) => setTimeout(done, wait * 1000)).then(() => (gone ? null : load(tries - 1)));
        }
        return Promise.reject(r.status);
      });
    load(5)
      .then((d) => {
        if (!d || gone) return;
        setBusy(false);
        setData(d);
        const at = seq !== null ? stepsBySeq(d).get(seq) : undefined;
        setStep((s) => (at !== undefined ? at : Math.min(s, d.steps.length - 1)));
        dispatch({ type: "replay/game", game: d.game || UNNAMED_GAME }); // the reference dialog shows its game's
      })
      .catch(() => { if (!gone) { setBusy(false); setError(t("replay.missing")); } });
    return () => { gone = true; };
  }, [id, viewer]);
  useEffect(() => { // a line of the log followed to this replay: its step
    if (!data || seq === null) return;
    const at = stepsBySeq(data).get(seq);
    if (at !== undefined) setStep(at);
  }, [seq, data]);
  useEffect(() => { // autoplay, at the page's pace
    if (!playing || !data) return undefined;
    const timer = setInterval(() => setStep((s) => {
      if (s >= data.steps.length - 1) { setPlaying(false); return s; }
      return s + 1;
    }), paceGap() || DEFAULT_GAP);
    return () => clearInterval(timer);
  }, [playing, data]);
  useEffect(() => {
    const onKey = (ev) => {
      if (!data || (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName))) return;
      const last = data.steps.length - 1;
      const moves = { ArrowRight: (s) => Math.min(last, s + 1), ArrowLeft: (s) => Math.max(0, s - 1), Home: () => 0, End: () => last };
      if (moves[ev.key]) { setStep(moves[ev.key]); ev.preventDefault(); }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [data]);
  if (error) return html`<main class="page"><p class="error">${error}</p><a href="#/">${t("nav.lobby")}</a></main>`;
  if (!data) return html`<main class="page"><p>${t(busy ? "replay.busy" : "replay.loading")}</p></main>`;
  const last = data.steps.length - 1;
  const events = data.steps.slice(0, step + 1).flatMap((s) => s.events);
  const view = data.steps[step].view;
  // The table as the viewer saw it at this step: the narrator names islands from the table's own board.
  const ts = tableWith(newTable(id), { you: typeof data.viewer === "number" ? data.viewer : null, loaded: true, view,
    fresh: data.steps[step].events,
    info: { game: data.game || UNNAMED_GAME, settings: { seats: data.seats, name: "" }, status: "finished",
            seats: data.names.map((n, s) => (n === null ? null : { seat: s, name: n, connected: true, away: false })) } });
  const setViewer = (v) => { location.hash = `#/r/${id}?as=${v}`; };
  const marks = landmarks(data, ts);
  const jump = (level, dir) => {
    const at = marks.filter((m) => m.level === level).map((m) => m.step);
    const next = dir > 0 ? at.find((x) => x > step) : [...at].reverse().find((x) => x < step);
    if (next !== undefined) setStep(next);
  };
  const bySeq = stepsBySeq(data);
  const lineLink = (e, text) => html`<button type="button" class="link line" onClick=${() => { const at = bySeq.get(e.seq); if (at !== undefined) setStep(at); }}>${text}</button>`;
  return html`<main class="table-page replay">
    <div class="table-head">
      <h1>${t("replay.title")} <span class="muted small">${id}</span></h1>
      <label class="field inline">${t("replay.as")}
        <select id="replay-as" value=${String(viewer)} onChange=${(e) => setViewer(e.target.value)}>
          <option value="spectator">${t("replay.spectator")}</option>
          <option value="all">${t("replay.all")}</option>
          ${data.names.map((n, s) => html`<option key=${s} value=${String(s)}>${n} (#${s})</option>`)}
        </select></label>
    </div>
    <div class="stepper" role="group" aria-label=${t("replay.steps")}>
      <button type="button" onClick=${() => setStep(0)} aria-label=${t("replay.first")}>⇤</button>
      <button type="button" id="replay-back" onClick=${() => setStep(Math.max(0, step - 1))} aria-label=${t("replay.back")}>◀</button>
      <input type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step")} onInput=${(e) => setStep(Number(e.target.value))} />
      <button type="button" id="replay-next" onClick=${() => setStep(Math.min(last, step + 1))} aria-label=${t("replay.next")}>▶</button>
      <button type="button" onClick=${() => setStep(last)} aria-label=${t("replay.last")}>⇥</button>
      <span class="small" id="replay-pos">${t("replay.position", { step, last })}</span>
      <button type="button" id="replay-play" class=${playing ? "on" : ""} aria-pressed=${playing}
        onClick=${() => { if (!playing && step >= last) setStep(0); setPlaying(!playing); }}>${playing ? `❚❚ ${t("replay.pause")}` : `▶ ${t("replay.play")}`}</button>
    </div>
    ${marks.length > 0 && html`<div class="stepper jumps" role="group" aria-label=${t("replay.jumps")}>
      ${marks.some((m) => m.level === 1) && html`<button type="button" id="replay-prev-group" onClick=${() => jump(1, -1)}>« ${t("replay.prev_season")}</button>
        <button type="button" id="replay-next-group" onClick=${() => jump(1, 1)}>${t("replay.next_season")} »</button>`}
      ${marks.some((m) => m.level === 2) && html`<button type="button" id="replay-prev-fight" onClick=${() => jump(2, -1)}>‹ ${t("replay.prev_fight")}</button>
        <button type="button" id="replay-next-fight" onClick=${() => jump(2, 1)}>${t("replay.next_fight")} ›</button>`}
      <label class="field inline">${t("replay.go_to")}
        <select id="replay-jump" value="" onChange=${(e) => { if (e.target.value !== "") setStep(Number(e.target.value)); }}>
          <option value="">…</option>
          ${marks.map((m, i) => html`<option key=${i} value=${String(m.step)}>${m.level === 2 ? "\u00a0\u00a0" : ""}${m.title}</option>`)}
        </select></label>
    </div>`}
    <div class="table-main">
      <div class="stage"><${gameUi(ts.game).Stage} ts=${ts} view=${view} /></div>
      <aside class="side"><${Feed} ts=${ts} events=${events} link=${lineLink} /></aside>
    </div>
  </main>`;
}
