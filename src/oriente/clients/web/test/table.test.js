// The table's state (src/state/table.js) from the frames of a
// subscription, and the page's state and store around it: run by
// `node --test` here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerKey, newTable, selection, tableReducer, waitsOnMe } from "../src/state/table.js";

// Frozen all the way down: a reducer that changed its input would throw.
function frozen(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

const seat = (s, name) => ({ seat: s, name, connected: true, away: false });
const prompt = (id, pivot, legal = []) => ({ id, pivot, topic: "turn", legal });

function snapshot(extra = {}) {
  return {
    t: "snapshot", table: "T", seq: 3, you: 1, view: { n: 1 }, prompt: prompt(7, 1, [{ type: "Pass", decision: 7 }]),
    table_info: { game: "dice", status: "open", settings: { seats: 3 }, seats: [seat(0, "ana"), seat(1, "ben"), null] },
    ...extra,
  };
}

function run(ts, ...actions) {
  for (const action of actions) ts = tableReducer(frozen(ts), frozen({ table: "T", ...action }));
  return ts;
}

const frame = (f, at = 0) => ({ type: "table/frame", frame: f, at });
const events = (list, more = {}) => ({ t: "events", table: "T", events: list, ...more });

test("a fresh table knows nothing and names the unnamed game", () => {
  const ts = newTable("T");
  assert.equal(ts.loaded, false);
  assert.equal(ts.seated, false);
  assert.equal(ts.game, "oriente");
  assert.equal(answerKey(ts), null);
  assert.equal(waitsOnMe(ts), false);
});

test("a snapshot gives the seat, the table, the view and the prompt with its moment", () => {
  const ts = run(newTable("T"), frame(snapshot(), 1234));
  assert.equal(ts.loaded, true);
  assert.equal(ts.you, 1);
  assert.equal(ts.seated, true);
  assert.equal(ts.game, "dice");
  assert.equal(ts.seq, 3);
  assert.equal(ts.promptAt, 1234);
  assert.equal(answerKey(ts), "7/1/3");
  assert.equal(waitsOnMe(ts), true);
});

test("events change the seats and the status without touching the state they came to", () => {
  const before = run(newTable("T"), frame(snapshot()));
  const after = run(before, frame(events([
    { seq: 4, type: "SeatTaken", seat: 2, name: "cleo", bot: "random" },
    { seq: 5, type: "SeatAway", seat: 0 },
    { seq: 6, type: "SeatPresence", seat: 1, connected: false },
    { seq: 7, type: "TableStarted" },
  ], { prompt: null }), 99));
  assert.deepEqual(after.info.seats[2], { seat: 2, name: "cleo", connected: true, away: false, bot: "random" });
  assert.equal(after.info.seats[0].away, true);
  assert.equal(after.info.seats[1].connected, false);
  assert.equal(after.info.status, "running");
  assert.equal(after.seq, 7);
  assert.equal(after.events.length, 4);
  assert.equal(after.prompt, null);
  assert.equal(after.promptAt, 99);
  // The state before is as it was (it is frozen: a change would have thrown).
  assert.equal(before.info.seats[2], null);
  assert.equal(before.events.length, 0);
});

test("an event seen already is not taken twice", () => {
  const e = { seq: 4, type: "SeatLeft", seat: 0 };
  const ts = run(newTable("T"), frame(snapshot()), frame(events([e])), frame(events([e, { seq: 3, type: "Chat" }])));
  assert.equal(ts.events.length, 1);
  assert.equal(ts.seq, 4);
});

test("history leaves the prompt and the view alone; live events replace them", () => {
  const ts = run(newTable("T"), frame(snapshot(), 1));
  const history = run(ts, frame(events([{ seq: 4, type: "Chat" }], { history: true, prompt: null, view: { n: 2 } }), 2));
  assert.deepEqual(history.prompt, ts.prompt);
  assert.deepEqual(history.view, { n: 1 });
  assert.equal(history.promptAt, 1);
  const live = run(history, frame(events([{ seq: 5, type: "Chat" }], { prompt: prompt(8, 0), view: { n: 3 } }), 3));
  assert.equal(live.prompt.id, 8);
  assert.deepEqual(live.view, { n: 3 });
  assert.equal(waitsOnMe(live), false);
});

test("proxies, rematches and the end are followed", () => {
  const ts = run(newTable("T"), frame(snapshot()), frame(events([
    { seq: 4, type: "ProxyOn", seat: 2 },
    { seq: 5, type: "ProxyOn", seat: 0 },
    { seq: 6, type: "ProxyOff", seat: 2 },
    { seq: 7, type: "TableFinished", result: { ranks: [1, 2] }, rematch: { table: "U", commitment: "c" } },
    { seq: 8, type: "RematchOffered", table: "U", seat: 0 },
  ])));
  assert.deepEqual(ts.proxied, [0]);
  assert.equal(ts.info.status, "finished");
  assert.deepEqual(ts.info.result, { ranks: [1, 2] });
  assert.deepEqual(ts.rematchNext, { table: "U", commitment: "c" });
  assert.deepEqual(ts.rematch, { table: "U", seat: 0 });
});

test("a place picked on the map holds for the answer it was picked in, no longer", () => {
  let ts = run(newTable("T"), frame(snapshot()), { type: "table/select", value: 12 });
  assert.equal(selection(ts), 12);
  ts = run(ts, { type: "table/select", value: null });
  assert.equal(selection(ts), null);
  ts = run(ts, { type: "table/select", value: 5 }, frame(events([{ seq: 4, type: "Chat" }], { prompt: prompt(7, 1) })));
  assert.equal(selection(ts), null); // the seq moved on: a new answer
});

test("seating, a sent answer and a refusal are remembered", () => {
  let ts = run(newTable("T"), { type: "table/seated", you: 2 });
  assert.equal(ts.seated, true);
  ts = run(ts, frame(snapshot({ you: 2 })), { type: "table/sent", key: "7/1/3" });
  assert.equal(ts.sentFor, answerKey(ts));
  ts = run(ts, { type: "table/missing", error: { code: "table/unknown" } });
  assert.equal(ts.missing.code, "table/unknown");
});

test("frames of other kinds and unknown actions change nothing", () => {
  const ts = run(newTable("T"), frame(snapshot()));
  assert.equal(tableReducer(ts, { type: "table/frame", frame: { t: "ok" }, at: 5 }).promptAt, ts.promptAt);
  assert.equal(tableReducer(ts, { type: "table/nothing" }), ts);
});
