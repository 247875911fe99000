// The promises a decision keeps or breaks (src/games/oriente/promises.js,
// docs/rules.md R8.6): run by `node --test` here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { breaksPromise, promisedPeace, promisedSupport } from "../src/games/oriente/promises.js";

const fight = { attacker: 2, defender: 3 };
const entry = (over) => ({ status: "open", promiser: 0, promisee: 2, kind: "support", attacker: 2, defender: 3,
  side: "attacker", season: 1, ...over });

test("R8.6: the open support promise for the fight under way is the one the support round keeps or breaks", () => {
  const view = { season: 1, fight, ledger: [entry({})] };
  assert.deepEqual(promisedSupport(view, 0), { side: "attacker", promisee: 2, deal: null });
  const support = promisedSupport(view, 0);
  assert.equal(breaksPromise({ type: "Support", side: "attacker", decision: 7 }, support, new Map()), false);
  assert.equal(breaksPromise({ type: "Support", side: "defender", decision: 7 }, support, new Map()), true);
  assert.equal(breaksPromise({ type: "Pass", decision: 7 }, support, new Map()), true);
});

test("a kept, broken or released promise, another seat's, another fight's or season's is none of this decision's", () => {
  for (const over of [{ status: "kept" }, { status: "released" }, { promiser: 1 }, { attacker: 4 }, { season: 2 }]) {
    assert.equal(promisedSupport({ season: 1, fight, ledger: [entry(over)] }, 0), null, JSON.stringify(over));
  }
  assert.equal(promisedSupport({ season: 1, fight: null, ledger: [entry({})] }, 0), null);
});

test("R8.6: an attack on a seat promised peace this season breaks that promise; others do not", () => {
  const view = { season: 1, ledger: [entry({ kind: "no_attack", seat: 4, promisee: 4 })] };
  const peace = promisedPeace(view, 0);
  assert.deepEqual([...peace], [[4, 4]]);
  assert.equal(breaksPromise({ type: "Announce", action: { kind: "attack", target: 4 } }, null, peace), true);
  assert.equal(breaksPromise({ type: "Claim", action: { kind: "attack", target: 4 } }, null, peace), true);
  assert.equal(breaksPromise({ type: "Announce", action: { kind: "attack", target: 1 } }, null, peace), false);
  assert.equal(breaksPromise({ type: "Pass", decision: 3 }, null, peace), false);
});
