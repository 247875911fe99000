// The pace a person can read: the steps of a table (one live events frame
// each) are shown one at a time with a short gap between them, in this page
// only. The server is never slowed: frames arrive as fast as the table
// plays, wait here in a queue, and are drawn from it. The queue is caught
// up at once whenever what it holds leaves something to the person (a
// decision waiting on their seat, a negotiation window opening, an offer
// made to them), when the person answers, and for the story so far
// (snapshots and history frames: a reload shows the table as it is). The
// gap is a setting of this browser (`oriente.pace`, in ms; 0: no queue).
import { waitsOnMe } from "./state/table.js";

export const DEFAULT_GAP = 800;
export const GAPS = [0, 400, 800, 1500];
const KEY = "oriente.pace";
// A queue this long is drawn faster: a spectator of a table of fast bots
// falls behind by a few steps, never by the whole game.
const BEHIND = 8;

// The gap between two steps, in ms, as this browser keeps it.
export function paceGap() {
  const raw = localStorage.getItem(KEY);
  if (raw === null) return DEFAULT_GAP;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_GAP;
}

export function setPaceGap(ms) {
  localStorage.setItem(KEY, String(ms));
  for (const [id, q] of queues) {
    if (ms === 0) flush(id);
    else if (q.timer !== null) { clearTimeout(q.timer); q.timer = null; schedule(id, ms); } // the new gap from now
  }
}

// Whether a table's state leaves something to its person: what the queue
// must not keep from them (a pure test, on the state the queue leads to).
export function needsPerson(ts) {
  if (!ts.seated || !ts.prompt) return false;
  if (waitsOnMe(ts)) return true;
  const p = ts.prompt;
  if (p.kind === "window") return true; // the table bargains now: everyone may
  return (p.legal || []).some((c) => c.type === "AcceptDeal");
}

const queues = new Map(); // table -> {items: [{frame, at}], timer, last}
let draw = null; // {apply(frame, at), current(id)}: how the page draws a frame (live.js)

// The page's one way to draw a frame of a table, and to read the table as drawn.
export function drawWith(apply, current) { draw = { apply, current }; }

function queueOf(id) {
  if (!queues.has(id)) queues.set(id, { items: [], timer: null, last: -Infinity });
  return queues.get(id);
}

// A frame of a followed table (it arrived at `at`): drawn now, or queued.
export function take(id, frame, at) {
  const q = queueOf(id);
  const gap = paceGap();
  const live = frame.t === "events" && !frame.history;
  q.items.push({ frame, at });
  if (!live || gap === 0) { flush(id); return; }
  // Caught up at once if the state the queue leads to needs the person. A
  // live frame's prompt replaces the one before it, so the newest frame's
  // prompt is the queue's; a spectator is never needed (no work per frame).
  const now = draw.current(id);
  if (now && now.seated && needsPerson({ ...now, prompt: frame.prompt })) { flush(id); return; }
  if (q.timer === null) schedule(id, Math.max(0, q.last + gap - performance.now()));
}

function schedule(id, wait) {
  const q = queueOf(id);
  if (wait === 0) { step(id); return; }
  q.timer = setTimeout(() => { q.timer = null; step(id); }, wait);
}

// One step drawn, the next one scheduled (sooner while far behind).
function step(id) {
  const q = queues.get(id);
  const x = q && q.items.shift();
  if (!x) return;
  draw.apply(x.frame, x.at);
  q.last = performance.now();
  if (q.items.length) {
    const gap = paceGap();
    q.timer = setTimeout(() => { q.timer = null; step(id); }, q.items.length > BEHIND ? gap * BEHIND / q.items.length : gap);
  }
}

// Catch a table up now: everything queued drawn at once (the person
// answered, turned the pace off, or the queue needs them).
export function flush(id) {
  const q = queues.get(id);
  if (!q || !draw) return;
  if (q.timer !== null) { clearTimeout(q.timer); q.timer = null; }
  const items = q.items;
  q.items = [];
  for (const x of items) draw.apply(x.frame, x.at);
  if (items.length) q.last = performance.now();
}

// How many steps of a table wait to be drawn.
export function behind(id) {
  return queues.has(id) ? queues.get(id).items.length : 0;
}

// Forget a table (the page left it): nothing of it is drawn any more.
export function drop(id) {
  const q = queues.get(id);
  if (q && q.timer !== null) clearTimeout(q.timer);
  queues.delete(id);
}
