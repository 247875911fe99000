// When the page's queue of steps must catch up at once (src/pace.js): run by
// `node --test` here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { needsPerson } from "../src/pace.js";

const seat = (prompt, you = 0) => ({ seated: typeof you === "number", you, prompt });
const decision = (pivot, extra = {}) => ({ id: 4, pivot, kind: "round", legal: [{ type: "Pass", decision: 4 }], ...extra });

test("a decision waiting on the person's seat, a window, or an offer to them needs the person", () => {
  assert.equal(needsPerson(seat(decision(0))), true);
  assert.equal(needsPerson(seat(decision(null, { kind: "window", legal: [] }))), true);
  assert.equal(needsPerson(seat(decision(2, { legal: [{ type: "AcceptDeal", deal: 3 }] }))), true);
});

test("another seat's decision, no decision, or a spectator: the steps keep their pace", () => {
  assert.equal(needsPerson(seat(decision(2))), false);
  assert.equal(needsPerson(seat(decision(0, { legal: [] }))), false); // nothing this seat may answer
  assert.equal(needsPerson(seat(null)), false);
  assert.equal(needsPerson(seat(decision(null, { kind: "window" }), null)), false);
});
