// A claim that cannot count (src/games/oriente/claims.js, docs/rules.md
// R4.3c): run by `node --test` here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hopelessClaim } from "../src/games/oriente/claims.js";

// Ranks by card id as the reference gives them: 0 Shogun 6 ... (enough for the test).
const rank = (c) => ({ 1: 6, 3: 5, 4: 5, 7: 4, 12: 3 })[c] ?? 0;
const view = (piles, inh = 3) => ({ announcer: 1, seats: [{ inhabitant: inh, pile: piles[0] }, { inhabitant: null, pile: piles[1] }] });
const prompt = (r = 5) => ({ topic: "privilege", rank: r, pivot: 0 });

test("R4.3c: at equal rank a claim with as many score cards as the announcer cannot count, and says why", () => {
  assert.deepEqual(hopelessClaim(view({ 0: [41, 42], 1: [43, 44] }), prompt(), 0, rank), { mine: 2, theirs: 2, announcer: 1 });
  assert.deepEqual(hopelessClaim(view({ 0: [41, 42, 45], 1: [43] }), prompt(), 0, rank), { mine: 3, theirs: 1, announcer: 1 });
});

test("R4.3c: fewer score cards at equal rank, or a higher rank, count", () => {
  assert.equal(hopelessClaim(view({ 0: [41], 1: [43, 44] }), prompt(), 0, rank), null);
  assert.equal(hopelessClaim(view({ 0: [41, 42, 45], 1: [43] }, 1), prompt(), 0, rank), null);
});

test("only a privilege round with its public rank is judged, and never without the seat's own card", () => {
  assert.equal(hopelessClaim(view({ 0: [41], 1: [] }), { ...prompt(), topic: "support" }, 0, rank), null);
  assert.equal(hopelessClaim(view({ 0: [41], 1: [] }), { topic: "privilege" }, 0, rank), null);
  assert.equal(hopelessClaim(view({ 0: [41], 1: [] }, null), prompt(), 0, rank), null);
});
