// A live table as this page knows it: built from the frames of one
// subscription (snapshot, events, prompt, view), nothing else.
import { Narrator } from "./games/oriente/narrate.js";
import { gameUi } from "./games.js";
import { app, changed, errorText, newNonce, say, seats } from "./state.js";

// Oriente's answers to a decision (its deal commands left out).
export const DECISIONS = new Set(["Announce", "Pass", "Claim", "Support", "Join", "Choose", "Done"]);
// Late or raced answers are normal (PROTOCOL.md 6): no need to alarm anyone.
const BENIGN = new Set(["decision/closed", "decision/answered", "game/over"]);

export class TableState {
  constructor(id) {
    this.id = id;
    this.you = null;
    this.info = null;
    this.view = null;
    this.prompt = null;
    this.promptAt = 0;
    this.events = [];
    this.seq = 0;
    this.proxied = new Set();
    this.rematch = null; // {table, seat} once someone asked for a rematch (RematchOffered)
    this.rematchNext = null; // {table, commitment}: the rematch committed to as the game ended (TableFinished)
    this.loaded = false;
    this.lines = new Map();
    this.linesLang = null;
    this.sentFor = null; // the answerKey() last answered from this page
    this.selected = null; // Oro: {key, conn}, a connection picked on the map
  }

  get seated() { return typeof this.you === "number"; }

  // The table's game; tables of servers that predate games are Oriente's.
  get game() { return (this.info && this.info.game) || "oriente"; }

  // What one answer answers: the decision, its pivot, and the table's seq,
  // since an Oro turn takes several answers within one decision.
  answerKey() { return this.prompt ? `${this.prompt.id}/${this.prompt.pivot}/${this.seq}` : null; }

  name(s) {
    const slot = this.info && this.info.seats ? this.info.seats[s] : null;
    return slot ? slot.name : app.t("seat.n", { n: s });
  }

  narrator() {
    // What the words depend on: Oriente's card reference, or the game's own (Oro's board).
    const ui = gameUi(this.game);
    const basis = ui.narratorBasis ? ui.narratorBasis(this) : app.ref;
    if (!this._narrator || this._narrator.lang !== app.lang || this._narratorBasis !== basis) {
      const label = (s) => (s === this.you ? app.t("seat.you_named", { name: this.name(s) }) : this.name(s));
      this._narrator = ui.narrator ? ui.narrator(this, label) : new Narrator(app.cat, app.en, app.ref, label);
      this._narratorBasis = basis;
    }
    return this._narrator;
  }

  line(e) {
    if (this.linesLang !== app.lang) { this.lines.clear(); this.linesLang = app.lang; }
    let text = this.lines.get(e.seq);
    if (text === undefined) {
      const viewer = this.seated ? this.you : null;
      text = this.narrator().narrate(e, viewer);
      this.lines.set(e.seq, text);
    }
    return text;
  }

  takeEvent(e) {
    if (e.seq <= this.seq) return;
    this.seq = e.seq;
    this.events.push(e);
    const info = this.info;
    if (info) {
      const slots = info.seats;
      switch (e.type) {
        case "SeatTaken": slots[e.seat] = { seat: e.seat, name: e.name, connected: true, away: false, ...(e.bot ? { bot: e.bot } : {}) }; break;
        case "SeatLeft": slots[e.seat] = null; break;
        case "SeatPresence": if (slots[e.seat]) slots[e.seat].connected = e.connected; break;
        case "SeatAway": if (slots[e.seat]) slots[e.seat].away = true; break;
        case "SeatBack": if (slots[e.seat]) slots[e.seat].away = false; break;
        case "TableStarted": info.status = "running"; break;
        case "TableFinished": info.status = "finished"; info.result = e.result; break;
        case "TableFailed": info.status = "failed"; break;
        case "TableAbandoned": info.status = "abandoned"; break;
        default: break;
      }
    }
    if (e.type === "ProxyOn") this.proxied.add(e.seat);
    if (e.type === "ProxyOff") this.proxied.delete(e.seat);
    if (e.type === "RematchOffered") this.rematch = { table: e.table, seat: e.seat };
    if (e.type === "TableFinished" && e.rematch) this.rematchNext = e.rematch;
  }

  frame(f) {
    if (f.t === "snapshot") {
      this.you = f.you;
      this.info = f.table_info;
      this.view = f.view;
      this.prompt = f.prompt;
      this.promptAt = performance.now();
      if (f.seq > this.seq) this.seq = f.seq;
      this.loaded = true;
    } else if (f.t === "events") {
      for (const e of f.events) this.takeEvent(e);
      if (!f.history) {
        this.prompt = f.prompt;
        this.promptAt = performance.now();
        if (f.view) this.view = f.view;
      }
    }
    app.net.seen(this.id, this.seq);
  }

  waitsOnMe() {
    const p = this.prompt;
    return Boolean(p && this.seated && p.pivot === this.you && (p.legal || []).some((c) => c.decision === p.id));
  }

  async act(cmd) {
    if (this.prompt && cmd.decision === this.prompt.id) this.sentFor = this.answerKey();
    try {
      await app.net.request({ t: "act", table: this.id, cmd }, { resend: true });
      return true;
    } catch (err) {
      if (!BENIGN.has(err.code)) say(errorText(err));
      return false;
    }
  }

  async chat(text) {
    try {
      await app.net.request({ t: "chat", table: this.id, text });
      return true;
    } catch (err) {
      say(errorText(err));
      return false;
    }
  }
}

export function onFrame(f) {
  if (!f.table) return;
  const ts = app.tables.get(f.table);
  if (!ts) return;
  ts.frame(f);
  if (f.t === "snapshot") bringNonce(ts);
  changed();
}

// A seat this browser holds by its token alone (a tournament's reserved
// seat) brings its own share of the seed once the page has seen the
// table's commitment, before the game starts (PROTOCOL.md resume).
function bringNonce(ts) {
  const mine = seats.get(ts.id);
  if (!mine || !mine.reserved || !mine.nonce || mine.commitment !== undefined || !ts.seated || !ts.info) return;
  if (ts.info.status !== "open") { seats.put(ts.id, { ...mine, nonce: null, commitment: null }); return; }
  seats.put(ts.id, { ...mine, commitment: ts.info.settings.commitment ?? null });
  app.net.request({ t: "resume", table: ts.id, token: mine.token, after: ts.seq, views: true, nonce: mine.nonce })
    .catch(() => {});
}

// Subscribe this page to a table: as its seat when the browser holds the
// token, as a spectator otherwise. The whole story so far comes first
// (after: 0), so a reload shows the same feed.
export function enterTable(id) {
  if (app.tables.has(id)) return app.tables.get(id);
  const ts = new TableState(id);
  app.tables.set(id, ts);
  let mine = seats.get(id);
  app.net.subscribe(id, { token: mine ? mine.token : null, after: 0, views: true });
  if (app.up) {
    // A reserved seat whose event showed the table's commitment brings its
    // nonce with this first resume (bringNonce is the fallback otherwise).
    let nonce;
    if (mine && mine.reserved && mine.nonce && mine.commitment === undefined && mine.offered) {
      mine = { ...mine, commitment: mine.offered };
      seats.put(id, mine);
      nonce = mine.nonce;
    }
    const msg = mine
      ? { t: "resume", table: id, token: mine.token, after: 0, views: true, ...(nonce ? { nonce } : {}) }
      : { t: "spectate", table: id, after: 0, views: true };
    app.net.request(msg).catch((err) => {
      if (err.code === "auth/bad_token") {
        seats.drop(id);
        app.tables.delete(id);
        app.net.unsubscribe(id);
        enterTable(id);
      } else {
        ts.missing = err; // told in words when drawn, in the language of that moment
        ts.missingCode = err.code;
        changed();
      }
    });
  }
  return ts;
}

export function leaveTable(id) {
  if (!app.tables.has(id)) return;
  app.tables.delete(id);
  app.net.unsubscribe(id);
  app.net.request({ t: "unsubscribe", table: id }).catch(() => {});
}

// The commitment a table has shown this page (its listing, or its page).
function commitmentSeen(id) {
  const ts = app.tables.get(id);
  const info = (ts && ts.info) || app.listing.find((x) => x.table === id);
  return info && info.settings ? info.settings.commitment ?? null : null;
}

export async function joinTable(id, seat = null, seen = undefined) {
  const name = (app.name || "").trim();
  if (!name) { say(app.t("lobby.need_name")); return null; }
  try {
    // The commitment shown before the join: the record is checked against it.
    const commitment = seen !== undefined ? seen : commitmentSeen(id);
    const nonce = newNonce();
    const ok = await app.net.request({ t: "join", table: id, name, seat, views: true, nonce });
    seats.put(id, { token: ok.token, seat: ok.seat, name, nonce, commitment });
    let ts = app.tables.get(id);
    if (!ts) { ts = new TableState(id); app.tables.set(id, ts); }
    ts.you = ok.seat;
    app.net.subscribe(id, { token: ok.token, after: ok.seq, views: true });
    return ok;
  } catch (err) {
    say(errorText(err));
    return null;
  }
}

// Take this browser's seat again at an ended table's rematch (the server
// creates it on the first request, PROTOCOL.md rematch): its answer is a
// join's, so the new table is entered like a joined one. Returns the table
// to open, or null.
export async function rematchTable(ts) {
  const mine = seats.get(ts.id);
  if (!mine) return ts.rematch ? ts.rematch.table : null;
  try {
    // The rematch was committed to as this game ended (TableFinished): our
    // nonce counts when it goes to that table (docs/table.md T7.4).
    const nonce = newNonce();
    const announced = ts.rematchNext;
    const ok = await app.net.request({ t: "rematch", table: ts.id, token: mine.token, views: true, nonce });
    const counts = Boolean(announced && announced.table === ok.table);
    seats.put(ok.table, { token: ok.token, seat: ok.seat, name: mine.name, nonce: counts ? nonce : null,
                          commitment: counts ? announced.commitment : null });
    let next = app.tables.get(ok.table);
    if (!next) { next = new TableState(ok.table); app.tables.set(ok.table, next); }
    next.you = ok.seat;
    app.net.subscribe(ok.table, { token: ok.token, after: ok.seq, views: true });
    return ok.table;
  } catch (err) {
    if (ts.rematch && (err.code === "seat/taken" || err.code === "table/started")) {
      if (!seats.get(ts.rematch.table)) say(app.t("result.rematch_taken"));
      return ts.rematch.table;
    }
    say(errorText(err));
    return null;
  }
}
