// Quick deals (src/games/oriente/quick.js): what a seat may propose in a
// few seconds during a fight, pre-filled from the view; run by `node --test`
// here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cheapestCard, counterDraft, dealsOf, quickCommands, quickOptions } from "../src/games/oriente/quick.js";

// Score values by card id, as the card reference gives them (R1.1, R1.2).
const value = (c) => (c === 40 ? 0 : c >= 49 ? 4 : c >= 45 ? 3 : c >= 41 ? 2 : c >= 37 ? 0 : c >= 25 ? 1 : c >= 18 ? 2 : c >= 12 ? 3 : c >= 7 ? 4 : c >= 3 ? 5 : c >= 1 ? 6 : 7);
const words = (key, args = {}) => `${key}${Object.keys(args).length ? ` ${JSON.stringify(args)}` : ""}`;
const name = (s) => `S${s}`;

// Six seats: seat 5 attacks seat 3; seats 0, 1, 2 and 4 are asked to support.
function table(piles = {}) {
  const seats = Array.from({ length: 6 }, (_, s) => ({ seat: s, disc: s !== 5, pile: piles[s] ?? [41 + s] }));
  return { seats, season: 1, fight: { attacker: 5, defender: 3, reinforcements: [] } };
}
const windowPrompt = (extra = {}) => ({ id: 5, kind: "window", topic: "negotiation", asked: [0, 1, 2, 4], pivot: null,
  early: [0, 1, 2, 4], published: [], done: [], legal: [], deal: { propose: true, open: 0, max_open: 3 }, ...extra });

test("the cheapest card worth something is offered by default, never a Ninja", () => {
  assert.equal(cheapestCard([49, 45, 37], value), 45);
  assert.equal(cheapestCard([37, 38], value), null);
  assert.equal(cheapestCard([], value), null);
});

test("a fighter buys support from the asked seats, the first one chosen", () => {
  const view = table({ 3: [49, 45] });
  const [buy, peace] = quickOptions(view, windowPrompt(), 3, value);
  assert.deepEqual({ ...buy }, { kind: "buy_support", side: "defender", fighter: 3, giver: 3, cards: [49, 45], card: 45,
    seats: [0, 1, 2, 4], chosen: [0] });
  assert.equal(peace.kind, "peace");
  assert.deepEqual(peace.chosen, [0]); // the attacker has no disc left: it cannot attack again this season
  const cmds = quickCommands(buy, 45, [0, 2], view, 3, words, name);
  assert.equal(cmds.length, 2); // one proposal per seat
  assert.deepEqual(cmds[1], {
    type: "ProposeDeal",
    transfers: [{ type: "Transfer", card: 45, giver: 3, receiver: 2, consideration: 'quick.for_support {"side":"side.defender","name":"S3"}' }],
    promises: [{ type: "Promise", promiser: 2, promisee: 3, kind: "support", attacker: 5, defender: 3, side: "defender",
      text: 'quick.promise_support {"side":"side.defender","name":"S3"}', cards: [], by_season: null, seat: null }],
    note: "",
    why: { code: "buy_support", attacker: 5, defender: 3, side: "defender" },
  });
});

test("an asked seat sells its support to either fighter for one of its cards", () => {
  const view = table({ 5: [52], 3: [] });
  const options = quickOptions(view, windowPrompt(), 1, value);
  assert.deepEqual(options.map((o) => [o.kind, o.side ?? null, o.card]), [["sell_support", "attacker", 52], ["peace", null, 42]]);
  const [cmd] = quickCommands(options[0], 52, [5], view, 1, words, name);
  assert.deepEqual(cmd.transfers.map((x) => [x.card, x.giver, x.receiver]), [[52, 5, 1]]);
  assert.deepEqual(cmd.promises.map((p) => [p.promiser, p.promisee, p.kind, p.side]), [[1, 5, "support", "attacker"]]);
  assert.deepEqual(cmd.why, { code: "sell_support", attacker: 5, defender: 3, side: "attacker" });
});

test("peace: my card for a seat's promise not to attack me, outside a fight too", () => {
  const view = { ...table(), fight: null };
  const [peace] = quickOptions(view, { id: 2, topic: "announce", asked: [0], pivot: 0, legal: [] }, 2, value);
  assert.equal(peace.kind, "peace");
  const [cmd] = quickCommands(peace, 43, [4], view, 2, words, name);
  assert.deepEqual(cmd.promises.map((p) => [p.promiser, p.promisee, p.kind, p.seat]), [[4, 2, "no_attack", 2]]);
  assert.deepEqual(cmd.why, { code: "peace", seat: 4 });
});

test("nothing quick to offer: no card, a declared seat, or the open-proposal limit", () => {
  assert.deepEqual(quickOptions(table({ 3: [37] }), windowPrompt(), 3, value), []);
  const declared = windowPrompt({ published: [[1, "defender"]] });
  assert.equal(quickOptions(table(), declared, 1, value).some((o) => o.kind === "sell_support"), false);
  assert.deepEqual(quickOptions(table(), windowPrompt({ deal: { propose: false, open: 3, max_open: 3 } }), 3, value), []);
  assert.deepEqual(quickOptions(null, windowPrompt(), 3, value), []);
});

test("a counter-offer starts from the offer's own terms and names it", () => {
  const offer = { deal: 7, proposer: 2, transfers: [{ type: "Transfer", card: 45, giver: 2, receiver: 0, consideration: "x" }],
    promises: [{ type: "Promise", promiser: 0, promisee: 2, text: "y", kind: "no_attack", seat: 2, cards: [] }] };
  const draft = counterDraft(offer);
  assert.equal(draft.counterTo, 7);
  assert.deepEqual(draft.transfers, [{ giver: 2, card: 45, receiver: 0, consideration: "x" }]);
  assert.equal(draft.promises[0].kind, "no_attack");
  assert.equal(draft.promises[0].seat, 2);
});

test("the deals of a seat: who accepted, how each ended and why, this season", () => {
  const events = [
    { type: "SeasonBegan", season: 1 },
    { type: "DealProposed", deal: 1, proposer: 0, parties: [0, 1] },
    { type: "SeasonBegan", season: 2 },
    { type: "DealProposed", deal: 2, proposer: 0, parties: [0, 2] },
    { type: "DealClosed", deal: 2, seat: 2, reason: "declined", why: { code: "worth_less" } },
    { type: "DealProposed", deal: 3, proposer: 4, parties: [0, 4], counter_to: 2 },
    { type: "DealAccepted", deal: 3, seat: 0 },
    { type: "DealExecuted", deal: 3 },
    { type: "DealProposed", deal: 4, proposer: 0, parties: [0, 1, 3] },
    { type: "DealAccepted", deal: 4, seat: 3 },
    { type: "DealProposed", deal: 5, proposer: 1, parties: [1, 3] },
  ];
  const mine = dealsOf(events, 0);
  assert.deepEqual(mine.map((d) => [d.deal, d.status, d.by, d.why && d.why.code, d.accepted]), [
    [1, "open", null, null, [0]], // an open deal of an earlier season stays (until it lapses)
    [2, "declined", 2, "worth_less", [0]],
    [3, "executed", null, null, [4, 0]],
    [4, "open", null, null, [0, 3]],
  ]);
  assert.equal(mine[2].counterTo, 2);
});
