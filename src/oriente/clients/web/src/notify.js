// "It's your turn" while this page is open but not looked at: the
// browser's Notification API, asked for permission when the person turns
// it on (the header's "Notify me"), shown when a decision awaits one of
// this page's seats, when a deal offered to one of them awaits its answer,
// or when the account's own tables (my_tables, the
// lobby's "my games") newly await it, and only while the page is hidden
// or not focused (in front of the page, the title and the sound say it).
// A click on the notification brings the page and the table forward.
import { app } from "./state.js";

const KEY = "oriente.notify";
const told = new Set(); // what was notified already: "table/decision/pivot" keys

export function notifyWanted() {
  return localStorage.getItem(KEY) === "on" && typeof Notification !== "undefined" && Notification.permission === "granted";
}

// Turn it on (asking the browser's permission) or off; whether it is on now.
export async function setNotify(on) {
  if (!on || typeof Notification === "undefined") {
    localStorage.setItem(KEY, "off");
    return false;
  }
  // Asked each time it is turned on: the browser answers at once when the person decided before.
  let permission = Notification.permission;
  if (permission !== "denied") permission = await Notification.requestPermission();
  localStorage.setItem(KEY, permission === "granted" ? "on" : "off");
  return permission === "granted";
}

// Tell it once per key, if wanted and the page is not in front. `body`:
// the words' key (a decision awaits, or a deal offered awaits an answer).
export function notifyTurn(key, table, name, body = "notify.body") {
  if (!key || told.has(key)) return;
  told.add(key);
  if (!notifyWanted() || (!document.hidden && document.hasFocus())) return;
  try {
    const n = new Notification(app.t("notify.title"), {
      body: app.t(body, { table: name || table }), tag: `oriente-${table}`,
    });
    n.onclick = () => { window.focus(); location.hash = `#/t/${table}`; n.close(); };
  } catch (e) { /* a browser that refuses page notifications: the title still says it */ }
}
