// Events in plain words, for any game: what every table tells (seats
// taken and left, chat, presence, the start and the end) and the words
// around it (seats, lists, plurals), over the catalogue's "narrate" part
// (clients/i18n/LANG.json, with each game's own words merged in: i18n.js).
// A game's narrator extends `Narrator` with a method `e_TYPE` per event
// (games/NAME/narrate.js); a game that brings none is told by
// `GenericNarrator`, from its words alone.
import { fill, pluralKey } from "./i18n.js";

export const cap = (s) => s.slice(0, 1).toUpperCase() + s.slice(1);

export const TABLE_EVENTS = new Set(["TableOpened", "SeatTaken", "SeatLeft", "TableStarted", "Chat", "SeatAway",
  "SeatBack", "SeatPresence", "ProxyOn", "ProxyOff", "TableFinished", "TableFailed", "RematchOffered", "TimedOut",
  "TableAbandoned"]);

export class Narrator {
  constructor(catalogue, english, label = null) {
    this.lang = catalogue.lang;
    this.words = catalogue.narrate;
    this.en = english.narrate;
    this.catalogue = catalogue;
    this.named = label !== null;
    this.label = label || ((s) => this.t("seat", { n: s }));
  }

  t(key, args) {
    const template = this.words[key] ?? this.en[key];
    if (template === undefined) throw new Error(`no words for ${key}`);
    return fill(template, args || {});
  }
  has(key) { return key in this.words; }
  // The page's rule for plurals (i18n.js pluralKey), the same as the Python narrator's.
  plural(key, n, args) { return this.t(pluralKey(this.catalogue, key, n), { n, ...args }); }

  seat(s) { return s === null || s === undefined ? this.t("nobody") : this.label(s); }
  list(items) {
    items = [...items];
    if (!items.length) return this.t("nothing");
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(this.t("sep")) + this.t("and") + items[items.length - 1];
  }
  seats(seats) {
    seats = [...seats];
    if (!seats.length) return this.t("no_seat");
    if (this.named) return this.list(seats.map((s) => this.seat(s)));
    return this.plural("seats", seats.length, { list: this.list(seats.map(String)) });
  }

  narrate(e, viewer = null) {
    if (TABLE_EVENTS.has(e.type)) return this.tableEvent(e);
    const fn = this[`e_${e.type}`];
    if (typeof fn !== "function") return this.fallback(e);
    let text;
    try {
      text = fn.call(this, e, viewer);
    } catch (err) {
      return this.fallback(e);
    }
    return text.split("\n").map(cap).join("\n");
  }

  fallback(e) {
    const fields = Object.entries(e).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
    return this.t("unknown", { type: e.type ?? "unknown event", fields: fields ? `: ${fields}` : "" });
  }

  tableEvent(e) {
    const t = e.type, seat = e.seat;
    if (t === "TableOpened" || t === "TableStarted") return this.t(t);
    if (t === "SeatTaken") return this.t(t, { name: e.name ?? "?", n: seat });
    if (t === "SeatLeft") return this.t(t, { n: seat });
    if (t === "Chat") return this.t(t, { name: e.name || this.seat(seat), n: seat, text: e.text ?? "" });
    const who = this.seat(seat);
    if (t === "ProxyOn") return this.t(t, { seat: who });
    if (t === "SeatAway" || t === "SeatBack" || t === "ProxyOff") return cap(this.t(t, { seat: who }));
    if (t === "SeatPresence") return cap(this.t(e.connected ? "SeatPresence.on" : "SeatPresence.off", { seat: who }));
    if (t === "TableFailed" || t === "TableAbandoned") return this.t(t);
    if (t === "RematchOffered") return cap(this.t(t, { seat: who, table: e.table ?? "" }));
    if (t === "TimedOut") return cap(this.t(t, { seat: who }));
    return "";
  }
}

// The fields of an event that name a seat, told by the seat's label.
const SEAT_FIELDS = new Set(["seat", "winner", "loser", "pivot", "target", "owner", "by", "to", "from", "proposer"]);

// A game that brings no narrator of its own: an event `TYPE` is told by the
// game's words "GAME.TYPE" (its catalogue's "narrate" part), each field
// filled in plainly (seats by their label, lists joined, a hidden value as
// such); an event it has no words for is told by its type and fields.
export class GenericNarrator extends Narrator {
  constructor(catalogue, english, game, label = null) {
    super(catalogue, english, label);
    this.game = game;
  }

  value(field, v) {
    if (v === null || v === undefined) return this.t(SEAT_FIELDS.has(field) ? "nobody" : "hidden_card");
    if (Array.isArray(v)) return v.map((x) => this.value(field, x)).join(this.t("sep"));
    if (SEAT_FIELDS.has(field) && Number.isInteger(v)) return this.seat(v);
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  }

  narrate(e) {
    if (TABLE_EVENTS.has(e.type)) return this.tableEvent(e);
    const key = `${this.game}.${e.type}`;
    if (!(key in this.words) && !(key in this.en)) return this.fallback(e);
    const args = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, this.value(k, v)]));
    return cap(this.t(key, args));
  }
}
