// The page's state (src/state/app.js) and its store (src/state/store.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { initialState, reduce } from "../src/state/app.js";
import { createStore } from "../src/state/store.js";

test("tables are followed, changed by their own actions, and forgotten", () => {
  let state = initialState({ name: "ana" });
  assert.equal(state.name, "ana");
  state = reduce(state, { type: "tables/follow", table: "T" });
  const followed = state;
  assert.equal(reduce(state, { type: "tables/follow", table: "T" }), state, "following twice changes nothing");
  state = reduce(state, { type: "table/seated", table: "T", you: 0 });
  assert.equal(state.tables.get("T").you, 0);
  assert.equal(followed.tables.get("T").you, null, "the state before is as it was");
  assert.equal(reduce(state, { type: "table/seated", table: "U", you: 1 }), state, "a table not followed is left alone");
  state = reduce(state, { type: "tables/forget", table: "T" });
  assert.equal(state.tables.has("T"), false);
});

test("a new address closes the dialog; the lobby's listing is marked as listed", () => {
  let state = reduce(initialState(), { type: "dialog", dialog: { kind: "cards" } });
  state = reduce(state, { type: "route", route: { page: "table", id: "T" } });
  assert.equal(state.dialog, null);
  assert.deepEqual(state.route, { page: "table", id: "T" });
  state = reduce(state, { type: "listing", tables: [{ table: "T" }] });
  assert.equal(state.listed, true);
  assert.equal(reduce(state, { type: "no such action" }), state);
});

test("the store tells its subscribers once for many actions, and not for none", () => {
  const queue = [];
  const store = createStore(reduce, initialState(), (fn) => queue.push(fn));
  const seen = [];
  const stop = store.subscribe((state) => seen.push(state.name));
  store.dispatch({ type: "name", name: "a" });
  store.dispatch({ type: "name", name: "b" });
  assert.equal(store.state.name, "b");
  assert.equal(queue.length, 1);
  queue.shift()();
  assert.deepEqual(seen, ["b"]);
  store.dispatch({ type: "no such action" });
  assert.equal(queue.length, 0);
  stop();
  store.dispatch({ type: "name", name: "c" });
  queue.shift()();
  assert.deepEqual(seen, ["b"]);
});
