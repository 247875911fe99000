// The end's tie-breaks named (src/games/oriente/ranking.js, docs/rules.md
// R9.4): run by `node --test` here and by tests/web/test_state_js.py.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tieBreaks } from "../src/games/oriente/ranking.js";

test("R9.4: equal totals are told apart by the first higher card, highest first", () => {
  const result = { scores: [20, 20, 17, 17], ranks: [2, 1, 3, 4], tiebreaks: [[6, 5, 5, 4], [6, 6, 4, 4], [7, 5, 5], [7, 5, 4, 1]], ninja_victor: null };
  assert.deepEqual(tieBreaks(result), [
    { ahead: 1, behind: 0, total: 20, at: 1, a: 6, b: 5 },
    { ahead: 2, behind: 3, total: 17, at: 2, a: 5, b: 4 },
  ]);
});

test("R9.4: a list that runs out first loses; identical lists share the rank", () => {
  const result = { scores: [5, 5, 5], ranks: [1, 3, 1], tiebreaks: [[3, 2], [3, 1, 1], [3, 2]], ninja_victor: null };
  assert.deepEqual(tieBreaks(result), [
    { ahead: 0, behind: 2, total: 5, shared: true },
    { ahead: 2, behind: 1, total: 5, at: 1, a: 2, b: 1 },
  ]);
  const runsOut = { scores: [4, 4], ranks: [1, 2], tiebreaks: [[2, 1, 1, 0], [2, 1, 1]], ninja_victor: null };
  assert.deepEqual(tieBreaks(runsOut), [{ ahead: 0, behind: 1, total: 4, at: 3, a: 0, b: null }]);
});

test("no tie, the Ninja victor, or a result without tie-break lists: nothing to explain", () => {
  assert.deepEqual(tieBreaks({ scores: [9, 8], ranks: [1, 2], tiebreaks: [[9], [8]] }), []);
  assert.deepEqual(tieBreaks({ scores: [3, 3], ranks: [1, 2], tiebreaks: [[3], [2, 1]], ninja_victor: 0 }), []);
  assert.deepEqual(tieBreaks({ scores: [3, 3], ranks: [1, 1] }), []);
});
