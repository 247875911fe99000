// How a time left reads (src/timeleft.js): minutes and seconds within the
// hour, hours and minutes within a day, days and hours beyond.
import assert from "node:assert/strict";
import { test } from "node:test";
import { timeLeft } from "../src/timeleft.js";

const words = { "time.hours_minutes": "{h} h {m} min", "time.days_hours": "{d} d {h} h" };
const t = (key, vars) => words[key].replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));

test("a live table's clock keeps minutes and seconds", () => {
  assert.equal(timeLeft(0, t), "0:00");
  assert.equal(timeLeft(4200, t), "0:05");
  assert.equal(timeLeft(125_000, t), "2:05");
  assert.equal(timeLeft(3_599_000, t), "59:59");
});

test("a turn-based table's clock reads in hours, then days", () => {
  assert.equal(timeLeft(3_600_000, t), "1 h 0 min");
  assert.equal(timeLeft(86_396_000, t), "23 h 59 min");
  assert.equal(timeLeft(3 * 86_400_000, t), "3 d 0 h");
  assert.equal(timeLeft(4 * 86_400_000 - 3_000, t), "3 d 23 h");
});
