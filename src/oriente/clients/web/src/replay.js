// A finished game step by step, forwards and backwards, as any seat saw it,
// as a spectator, or with everything revealed. The server replays the
// record through the rules and projects each step for the chosen viewer
// (/data/replay/ID.json?as=...): the page never judges what is hidden.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { gameUi } from "./games.js";
import { Feed } from "./table.js";
import { newTable, tableWith, UNNAMED_GAME } from "./state/table.js";
import { app, dispatch } from "./state.js";

const html = htm.bind(h);

export function ReplayPage({ id, as }) {
  const t = app.t;
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const viewer = as || "spectator";
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
        setStep((s) => Math.min(s, d.steps.length - 1));
        dispatch({ type: "replay/game", game: d.game || UNNAMED_GAME }); // the reference dialog shows its game's
      })
      .catch(() => { if (!gone) { setBusy(false); setError(t("replay.missing")); } });
    return () => { gone = true; };
  }, [id, viewer]);
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
    info: { game: data.game || UNNAMED_GAME, settings: { seats: data.seats, name: "" }, status: "finished",
            seats: data.names.map((n, s) => (n === null ? null : { seat: s, name: n, connected: true, away: false })) } });
  const setViewer = (v) => { location.hash = `#/r/${id}?as=${v}`; };
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
      <button type="button" onClick=${() => setStep(0)} aria-label=${t("replay.first")}>⏮</button>
      <button type="button" id="replay-back" onClick=${() => setStep(Math.max(0, step - 1))} aria-label=${t("replay.back")}>◀</button>
      <input type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step")} onInput=${(e) => setStep(Number(e.target.value))} />
      <button type="button" id="replay-next" onClick=${() => setStep(Math.min(last, step + 1))} aria-label=${t("replay.next")}>▶</button>
      <button type="button" onClick=${() => setStep(last)} aria-label=${t("replay.last")}>⏭</button>
      <span class="small" id="replay-pos">${t("replay.position", { step, last })}</span>
    </div>
    <div class="table-main">
      <div class="stage"><${gameUi(ts.game).Stage} ts=${ts} view=${view} /></div>
      <aside class="side"><${Feed} ts=${ts} events=${events} /></aside>
    </div>
  </main>`;
}
