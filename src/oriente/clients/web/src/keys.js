// The key that picks each choice of a decision: 1 to 9, then 0, then the
// letters, so that every choice has one however many there are (the table
// page listens for them: table.js). No key is taken from the page's own
// shortcuts (Escape, the arrows of a replay).
const KEYS = "1234567890abcdefghijklmnopqrstuvwxyz";

export function choiceKey(i) {
  return i < KEYS.length ? KEYS[i] : null;
}

export function isChoiceKey(key) {
  return typeof key === "string" && key.length === 1 && KEYS.includes(key.toLowerCase());
}
