// A table as this page knows it, built from the frames of its subscription
// alone (snapshot, events, prompt, view) by a pure reducer, plus what this
// page did at it (the answer it last sent, the place picked on a map). A
// table's state is a plain object, replaced on every change; the
// functions below read it. No I/O and no clock: the moment a prompt came
// arrives with its action (`at`), so tests replay frames exactly.

// PROTOCOL.md (table_info.game): a table that names no game is Oriente's,
// as every table of a server that predates games was.
export const UNNAMED_GAME = "oriente";

export function newTable(id) {
  return withDerived({
    id, you: null, info: null, view: null, prompt: null, promptAt: 0, events: [], seq: 0, proxied: [],
    rematch: null, // {table, seat} once someone asked for a rematch (RematchOffered)
    rematchNext: null, // {table, commitment}: the rematch committed to as the game ended (TableFinished)
    loaded: false,
    sentFor: null, // the answerKey() last answered from this page
    selected: null, // {key, value}: a place picked on the table's map, for the answer `key`
    missing: null, // the error that refused to show the table
    fresh: [], // the events of the step drawn last (a live frame's): what changed, marked until the next step
  });
}

// A table built whole rather than from frames (a replay's step).
export function tableWith(ts, fields) {
  return withDerived({ ...ts, ...fields });
}

function withDerived(ts) {
  ts.seated = typeof ts.you === "number";
  ts.game = (ts.info && ts.info.game) || UNNAMED_GAME;
  return ts;
}

const SEAT_EVENTS = {
  SeatTaken: (slots, e) => { slots[e.seat] = { seat: e.seat, name: e.name, connected: true, away: false, ...(e.bot ? { bot: e.bot } : {}) }; },
  SeatLeft: (slots, e) => { slots[e.seat] = null; },
  SeatPresence: (slots, e) => { if (slots[e.seat]) slots[e.seat] = { ...slots[e.seat], connected: e.connected }; },
  SeatAway: (slots, e) => { if (slots[e.seat]) slots[e.seat] = { ...slots[e.seat], away: true }; },
  SeatBack: (slots, e) => { if (slots[e.seat]) slots[e.seat] = { ...slots[e.seat], away: false }; },
};
const STATUS = { TableStarted: "running", TableFinished: "finished", TableFailed: "failed", TableAbandoned: "abandoned" };

// One event into the table (the events list is the caller's, already copied).
function takeEvent(ts, e) {
  if (e.seq <= ts.seq) return ts;
  ts.seq = e.seq;
  ts.events.push(e);
  if (ts.info) {
    if (SEAT_EVENTS[e.type]) {
      const seats = [...ts.info.seats];
      SEAT_EVENTS[e.type](seats, e);
      ts.info = { ...ts.info, seats };
    } else if (STATUS[e.type]) {
      ts.info = { ...ts.info, status: STATUS[e.type], ...(e.type === "TableFinished" ? { result: e.result } : {}) };
    }
  }
  if (e.type === "ProxyOn" && !ts.proxied.includes(e.seat)) ts.proxied = [...ts.proxied, e.seat];
  if (e.type === "ProxyOff") ts.proxied = ts.proxied.filter((s) => s !== e.seat);
  if (e.type === "RematchOffered") ts.rematch = { table: e.table, seat: e.seat };
  if (e.type === "TableFinished" && e.rematch) ts.rematchNext = e.rematch;
  return ts;
}

function takeFrame(ts, f, at) {
  if (f.t === "snapshot") {
    return { ...ts, you: f.you, info: f.table_info, view: f.view, prompt: f.prompt, promptAt: at,
             seq: Math.max(ts.seq, f.seq), loaded: true, fresh: [] };
  }
  if (f.t === "events") {
    let next = { ...ts, events: [...ts.events] };
    for (const e of f.events) next = takeEvent(next, e);
    if (!f.history) {
      next.fresh = f.events.filter((e) => e.seq > ts.seq);
      next.prompt = f.prompt;
      next.promptAt = at;
      if (f.view) next.view = f.view;
    }
    return next;
  }
  return ts;
}

// The actions on one table: each names it (`table`).
//   frame {frame, at}     a snapshot or events frame of its subscription
//   seated {you}          this page took a seat (join, rematch)
//   missing {error}       the server refused to show it
//   sent {key}            this page answered the decision `key` (answerKey)
//   select {value}        a place picked on the map (null: none), for the current answer
export function tableReducer(ts, action) {
  switch (action.type) {
    case "table/frame": return withDerived(takeFrame(ts, action.frame, action.at));
    case "table/seated": return withDerived({ ...ts, you: action.you });
    case "table/missing": return { ...ts, missing: action.error };
    case "table/sent": return { ...ts, sentFor: action.key };
    case "table/select": return { ...ts, selected: action.value === null ? null : { key: answerKey(ts), value: action.value } };
    default: return ts;
  }
}

// What one answer answers: the decision, its pivot, and the table's seq,
// since a turn may take several answers within one decision (PROTOCOL.md 6).
export function answerKey(ts) {
  return ts.prompt ? `${ts.prompt.id}/${ts.prompt.pivot}/${ts.seq}` : null;
}

// The place picked on the map for the answer now open, or null (a new prompt forgets it).
export function selection(ts) {
  return ts.selected && ts.selected.key === answerKey(ts) ? ts.selected.value : null;
}

export function slotName(ts, s) {
  const slot = ts.info && ts.info.seats ? ts.info.seats[s] : null;
  return slot ? slot.name : null;
}

export function waitsOnMe(ts) {
  const p = ts.prompt;
  return Boolean(p && ts.seated && p.pivot === ts.you && (p.legal || []).some((c) => c.decision === p.id));
}
