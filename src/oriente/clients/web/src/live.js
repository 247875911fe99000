// The tables this page follows, live: the frames of each subscription
// into the store (state/table.js builds a table's state from them), and
// what this page does at a table: answer, chat, join, take a rematch.
// Narration is derived, kept apart from the state: a line per event, per
// language, computed once.
import { GenericNarrator } from "./narrate.js";
import { gameUi } from "./games.js";
import { remember } from "./mygames.js";
import { drawWith, drop, flush, take } from "./pace.js";
import { autoAnswer } from "./settings.js";
import { answerKey, slotName } from "./state/table.js";
import { app, dispatch, errorText, newNonce, say, seats } from "./state.js";

// Late or raced answers are normal (PROTOCOL.md 6): no need to alarm anyone.
const BENIGN = new Set(["decision/closed", "decision/answered", "game/over"]);

const BOT_MARK = / \(bot\)$/;

// A seat's name at a table, or "seat N" while nobody has it. The server
// names its bots "Aiko (bot)"; the page says the mark in its own language.
export function seatName(ts, s) {
  return slotName(ts, s) === null ? app.t("seat.n", { n: s }) : slotLabel(ts.info.seats[s]);
}

// A taken seat's name as the page says it (a bot's mark translated).
export function slotLabel(slot) {
  return slot.bot && BOT_MARK.test(slot.name) ? `${slot.name.replace(BOT_MARK, "")} ${app.t("seat.bot_mark")}` : slot.name;
}

// The narrator of a table and its lines, by table id: rebuilt when the
// language, what the words depend on (the game's reference) or the game's
// folder (loaded after the page began) changes.
const narration = new Map();

export function narratorOf(ts) {
  const ui = gameUi(ts.game);
  const basis = ui.narratorBasis ? ui.narratorBasis(ts) : null;
  let kept = narration.get(ts.id);
  if (!kept || kept.lang !== app.lang || kept.basis !== basis || kept.you !== ts.you || kept.ui !== ui) {
    // Names are read when a line is first told, from the table as it is then.
    const label = (s) => (s === kept.ts.you ? app.t("seat.you_named", { name: seatName(kept.ts, s) }) : seatName(kept.ts, s));
    const narrator = ui.narrator ? ui.narrator(ts, label) : new GenericNarrator(app.cat, app.en, ts.game, label);
    kept = { lang: app.lang, basis, you: ts.you, ui, narrator, lines: new Map() };
    narration.set(ts.id, kept);
  }
  kept.ts = ts;
  return kept.narrator;
}

export function lineOf(ts, e) {
  const narrator = narratorOf(ts);
  const lines = narration.get(ts.id).lines;
  let text = lines.get(e.seq);
  if (text === undefined) {
    text = narrator.narrate(e, ts.seated ? ts.you : null);
    lines.set(e.seq, text);
  }
  return text;
}

// Send an answer to the open decision (a command of its `legal` list).
export async function act(ts, cmd) {
  flush(ts.id); // the person acts on the table as it is now
  const now = app.tables.get(ts.id) || ts;
  if (now.prompt && cmd.decision === now.prompt.id) dispatch({ type: "table/sent", table: ts.id, key: answerKey(now) });
  try {
    await app.net.request({ t: "act", table: ts.id, cmd }, { resend: true });
    return true;
  } catch (err) {
    if (!BENIGN.has(err.code)) say(errorText(err));
    return false;
  }
}

export async function chat(ts, text) {
  try {
    await app.net.request({ t: "chat", table: ts.id, text });
    return true;
  } catch (err) {
    say(errorText(err));
    return false;
  }
}

export function onFrame(f) {
  if (!f.table || !app.tables.has(f.table)) return;
  if (f.t !== "snapshot" && f.t !== "events") return;
  take(f.table, f, performance.now()); // drawn at the page's pace (pace.js)
}

// One frame drawn: into the store, then what the game's screen keeps of each step.
function drawFrame(f, at) {
  if (!app.tables.has(f.table)) return;
  dispatch({ type: "table/frame", table: f.table, frame: f, at });
  const ts = app.tables.get(f.table);
  app.net.seen(ts.id, ts.seq);
  if (f.t === "snapshot") bringNonce(ts);
  remember(ts); // its line in "my games" (mygames.js)
  const ui = gameUi(ts.game);
  if (ui.onStep) ui.onStep(ts);
  // Once the frames drawn together are all in: a round the person passes at once.
  queueMicrotask(() => autoAnswer(app.tables.get(f.table)));
}
drawWith(drawFrame, (id) => app.tables.get(id) || null);

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
const accountTried = new Set(); // tables where the signed-in account's seat was asked for once

export function enterTable(id) {
  if (app.tables.has(id)) return;
  dispatch({ type: "tables/follow", table: id });
  let mine = seats.get(id);
  // Signed in, a table this browser holds no token of may hold the
  // account's seat (a turn-based table's, taken on another device): a
  // resume without a token takes it (PROTOCOL.md resume); refused, the
  // page spectates.
  if (!mine && app.account && !accountTried.has(id)) {
    accountTried.add(id);
    mine = { token: "", account: true };
  }
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
        if (!mine.account) seats.drop(id);
        drop(id);
        dispatch({ type: "tables/forget", table: id });
        app.net.unsubscribe(id);
        enterTable(id);
      } else {
        // Told in words when drawn, in the language of that moment.
        dispatch({ type: "table/missing", table: id, error: err });
      }
    });
  }
}

export function leaveTable(id) {
  if (!app.tables.has(id)) return;
  drop(id);
  dispatch({ type: "tables/forget", table: id });
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
    dispatch({ type: "tables/follow", table: id });
    dispatch({ type: "table/seated", table: id, you: ok.seat });
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
    dispatch({ type: "tables/follow", table: ok.table });
    dispatch({ type: "table/seated", table: ok.table, you: ok.seat });
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

// The rematch button: take the seat there, and go there.
export async function goToRematch(ts) {
  const id = await rematchTable(ts);
  if (id) location.hash = `#/t/${id}`;
}

export async function addBots(table, token, policy, count) {
  try {
    await app.net.request({ t: "add_bots", table, token, policy, count });
    return true;
  } catch (err) {
    say(errorText(err));
    return false;
  }
}

// Fill an open table's free seats with the game's default bot.
export function fillWithBots(ts) {
  const mine = seats.get(ts.id);
  if (mine) addBots(ts.id, mine.token, null, null);
}
