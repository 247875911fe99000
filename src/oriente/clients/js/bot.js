#!/usr/bin/env node
// A random-play bot for an Oriente table server, written from protocol/PROTOCOL.md (oriente.v1).
// It plays any game the server serves by picking among the prompt's `legal` commands, one command
// at a time: a decision may take several (PROTOCOL.md 6). A game that needs more than that (a
// choice too large to list) brings a module of its own, games/GAME.js, found here by its name.
// It makes no deals: it declines every deal offered to it, saying why (a reason code, PROTOCOL.md 7,
// "Reasons and counter-offers"), and tells the reasons and counter-offers it sees on its progress lines.
import { randomBytes } from 'node:crypto';
import { readdirSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// Its two packages, loaded here so that a bot run before `npm ci` says so in one line instead of
// Node's error for an import it cannot resolve.
async function dependencies() {
  try {
    return [await import('@msgpack/msgpack'), (await import('ws')).default];
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    const here = fileURLToPath(new URL('.', import.meta.url));
    console.error(`bot.js: its packages are not installed (${err.message.split('\n')[0]}); run npm ci in ${here} first`);
    process.exit(1);
  }
}
const [{ decode, encode }, WebSocket] = await dependencies();

export const SUBPROTOCOL = 'oriente.v1';
// The bot-table timers suggested in PROTOCOL.md section 11.
export const BOT_TIMERS = { prompt_ms: 2000, window_ms: 0, bank_ms: 0, bank_refill_ms: 0, zero_wait: true, away_after: 3 };
// A turn-based table's timers (docs/table.md T8): a day per decision, eight
// hours to negotiate, a bank of three days; deadlines are wall-clock times
// (a prompt's deadline_at_ms).
export const TURN_TIMERS = { prompt_ms: 86400000, window_ms: 28800000, bank_ms: 259200000, bank_refill_ms: 43200000,
  zero_wait: false, away_after: 3, turn_based: true };

// Whether a table (its information or listing entry) is turn-based.
export function isTurnBased(table) {
  return Boolean(table?.settings?.timers?.turn_based);
}
export const BENIGN_ERRORS = new Set(['decision/closed', 'decision/answered', 'deal/unknown']);
// Why this bot declines a deal (PROTOCOL.md 7, R8.8): what a deal gives a random bot is worth
// less to it than what it asks. A reason is a code with its parameters; clients word it.
export const DECLINE_REASON = { code: 'worth_less' };
const LOBBY_RETRY = new Set(['table/full', 'table/started', 'seat/taken']); // lost a race for a seat
const FATAL_CLOSE = new Set([1008, 1009]); // "fix your client": do not reconnect
// Table events about our seat: true when the table stops waiting for it (PROTOCOL.md 9).
const ATTENDANCE = { SeatAway: true, ProxyOn: true, SeatBack: false, ProxyOff: false };
const MAX_RETRIES = 20;
// PROTOCOL.md 3 (create_table.game): a table that names no game plays the default one.
const DEFAULT_GAME = 'oriente';

// Per game, what it adds to picking among `legal` (games/GAME.js: `answers(prompt, rng)`, the
// commands to pick from when `legal` lists none); most games need no module.
const GAMES = new Map(await Promise.all(readdirSync(new URL('./games/', import.meta.url))
  .filter((f) => f.endsWith('.js'))
  .map(async (f) => [f.slice(0, -3), await import(new URL(`./games/${f}`, import.meta.url).href)])));

/**
 * A websocket URL's origin: scheme://host[:port], the port left out when it is the
 * scheme's default; null for anything else. The same host on another port is another
 * origin (PROTOCOL.md 4, moved).
 */
export function originOf(url) {
  try {
    const u = new URL(String(url).trim());
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return null;
    return `${u.protocol}//${u.host}`.toLowerCase(); // URL drops a default port from `host`
  } catch (e) {
    return null;
  }
}

/** A small seeded PRNG (mulberry32) returning floats in [0, 1). */
export function makeRng(seed = Math.floor(Math.random() * 2 ** 32)) {
  let a = Number(BigInt.asUintN(32, BigInt(seed)));
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export class ProtocolError extends Error {
  constructor(frame) {
    super(`unexpected ${frame.t} frame: ${JSON.stringify(frame)}`);
    this.frame = frame;
  }
}

/**
 * Open a connection, send one request, and resolve with its `ok` (reject on `error`).
 * `token`: sign in with this session or API token first (PROTOCOL.md 19); the server
 * answers a connection's frames in order, so the request is made signed in.
 */
export function request(server, msg, timeoutMs = 10000, { token = null } = {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(server, [SUBPROTOCOL], { perMessageDeflate: false });
    const id = `req-${randomBytes(4).toString('hex')}`;
    const timer = setTimeout(() => { ws.terminate(); reject(new Error(`no reply to ${msg.t}`)); }, timeoutMs);
    const done = (fn, value) => { clearTimeout(timer); ws.close(1000); fn(value); };
    ws.on('error', (err) => { clearTimeout(timer); reject(err); });
    ws.on('open', () => {
      if (token) ws.send(encode({ t: 'sign_in', id: `${id}-auth`, token }));
      ws.send(encode({ ...msg, id }));
    });
    ws.on('message', (data) => {
      const f = decode(data);
      if (f.re !== id) return; // welcome, or anything else
      if (f.t === 'ok') done(resolve, f);
      else done(reject, new ProtocolError(f));
    });
  });
}

/**
 * A person's or a bot account's own tables (PROTOCOL.md 3, my_tables): the table
 * information of each of `tables` (ids kept from earlier games) that exists and,
 * signed in with `token`, of every table where the account holds a seat; each with
 * `you`, the account's seat there (null: none). Resolves with the list.
 */
export async function myTables(server, { tables = [], limit = 20, token = null } = {}) {
  const ok = await request(server, { t: 'my_tables', tables, limit }, 10000, { token });
  return ok.tables;
}

/**
 * Give the e-mail address of the person whose session `token` is (PROTOCOL.md 3,
 * set_email; "" removes it): the server mails a confirmation link, then mails the
 * person when a turn-based table awaits them. A bot's token is refused
 * (account/not_a_person). Resolves with `{address, confirmed, notify}` or null.
 */
export async function setEmail(server, address, { token }) {
  const ok = await request(server, { t: 'set_email', address }, 30000, { token });
  return ok.email;
}

/** Create a public zero-wait bot table of `game`; resolves with its id. */
export async function createTable(server, { seats = 4, seed = null, name = 'js bots', game = DEFAULT_GAME,
                                            options = {}, rated = false } = {}) {
  const ok = await request(server, { t: 'create_table', seats, name, public: true, seed, timers: BOT_TIMERS,
                                     game, options, rated });
  return ok.table;
}

/**
 * One bot playing one seat of one table until the table finishes.
 * Give `table` to join it, `create` (a seat count) to create a table first,
 * or neither to join the first open zero-wait public table with a free seat.
 */
export class Bot {
  constructor({ server, table = null, create = null, name = 'jsbot', seed = null, rng = null,
                tableSeed = null, game = DEFAULT_GAME, log = () => {}, hooks = {}, apiToken = null,
                resume = false }) {
    // apiToken: the bot account's API token (PROTOCOL.md 19); the bot signs in with it on
    // every connection, before anything else, so its seat is its account's.
    // resume: take the seat the account already holds at `table` (taken by another
    // process, or listed by my_tables) with a resume without its token, signed in,
    // on every connection (PROTOCOL.md 3, resume); it needs apiToken.
    if (resume && (!apiToken || !table)) throw new Error('resume takes the seat an account holds: give apiToken and table');
    Object.assign(this, { server, table, create, name, tableSeed, game, log, hooks, apiToken });
    this.byAccount = resume;
    this.home = server; // where we were told to connect; `moved` may take us elsewhere on the site
    this.origins = new Set();
    this.account = null;
    this.lobby = !table && !create;
    this.rng = rng ?? makeRng(seed ?? undefined);
    this.prefix = randomBytes(4).toString('hex'); // ids stay unique across reconnects and runs
    this.counter = 0;
    this.seat = null;
    this.token = null;
    this.lastSeq = null;
    this.answered = new Set(); // `${prompt id}:${pivot}:${seq}` already answered
    this.declined = new Set(); // deal ids declined (a deal is answered once)
    this.prompt = null; // the newest prompt, answered once no command of ours is in flight
    this.unacked = new Map(); // act id -> act message without a reply yet
    this.pending = new Map(); // other request id -> message (current connection only)
    this.joinSent = false;
    // A secret nonce makes the join safe to retry: sent again with it, a join whose
    // reply was lost gets the same seat and token back (PROTOCOL.md 3, join).
    this.nonce = randomBytes(18).toString('base64url');
    this.joins = 0;
    this.trace = []; // every seq received: {kind: 'event' | 'snapshot', seq, type?, history?}
    this.stats = { acts: 0, connects: 0, resumes: 0, resent: 0, duplicates: 0, benign: 0, gaps: 0, backs: 0 };
    this.away = false; // the table does not wait for our seat: away or proxied (PROTOCOL.md 11)
    this.failures = 0;
    this.done = false;
    this.ws = null;
  }

  /** Resolves with {table, seat, ranks, scores, reason} when the table finishes. */
  play() {
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.connect();
    });
  }

  /** Drop the connection as a network failure would (for tests). */
  dropConnection() {
    if (!this.ws) return;
    this.ws.dropped = true;
    this.ws.terminate();
  }

  connect() {
    const ws = new WebSocket(this.server, [SUBPROTOCOL], { perMessageDeflate: false, handshakeTimeout: 10000 });
    this.ws = ws;
    this.pending.clear();
    this.stats.connects++;
    ws.on('message', (data, isBinary) => {
      if (ws !== this.ws || ws.dropped || this.done) return;
      try {
        this.onFrame(isBinary ? decode(data) : { t: 'text frame', data: String(data) });
      } catch (err) {
        this.fail(err);
      }
    });
    ws.on('error', (err) => this.log(`socket error: ${err.message}`));
    ws.on('close', (code) => {
      if (ws !== this.ws || this.done) return;
      // A `moved` that led nowhere: back to the address we were given.
      if (!ws.welcomed && this.server !== this.home) this.server = this.home;
      this.reconnect(code);
    });
  }

  reconnect(code) {
    if (FATAL_CLOSE.has(code)) return this.fail(new Error(`server closed the connection with ${code}`));
    if (++this.failures > MAX_RETRIES) return this.fail(new Error(`gave up after ${MAX_RETRIES} reconnects`));
    const delay = Math.min(2000, 50 * 2 ** this.failures);
    this.log(`connection closed (${code}); reconnecting in ${delay} ms`);
    setTimeout(() => this.connect(), delay);
  }

  newId() { return `${this.prefix}-${++this.counter}`; }

  send(m) {
    this.ws.send(encode(m)); // always binary; a closed socket drops it (acts stay in `unacked`)
    this.hooks.onSend?.(m, this);
  }

  request(t, fields) {
    const m = { t, id: this.newId(), ...fields };
    this.pending.set(m.id, m);
    this.send(m);
  }

  fail(err) {
    if (this.done) return;
    this.done = true;
    this.ws?.terminate();
    this.reject(err);
  }

  finish(result) {
    if (this.done) return;
    this.done = true;
    this.result = result;
    this.ws.close(1000);
    this.resolve({ table: this.table, seat: this.seat, ranks: result.ranks, scores: result.scores, reason: result.reason });
  }

  onFrame(f) {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) throw new Error(`not a map: ${JSON.stringify(f)}`);
    if (this.hooks.onFrame?.(f, this) === false) return undefined; // a test dropped it
    switch (f.t) {
      case 'welcome': return this.onWelcome(f);
      case 'ok': return this.onOk(f);
      case 'error': return this.onError(f);
      case 'snapshot': return this.onSnapshot(f);
      case 'events': return this.onEvents(f);
      case 'goodbye': return this.fail(new ProtocolError(f));
      case 'moved': return this.onMoved(f);
      case 'text frame': throw new Error(`server sent a text frame: ${f.data}`);
      default: return undefined; // unknown frame types are ignored (section 15)
    }
  }

  // PROTOCOL.md 4, moved: the table went to another server process; the
  // server closes with 1012 next and the reconnect resumes (at `url` if given,
  // and only if it is one of the site's own origins: our tokens go where we connect).
  onMoved(f) {
    if (typeof f.url === 'string' && f.url) {
      if (this.origins.has(originOf(f.url))) {
        this.log(`table ${f.table} moved to ${f.url}`);
        this.server = f.url;
      } else {
        this.log(`table ${f.table} moved to ${f.url}, not one of this site's origins: reconnecting where we were`);
      }
    } else {
      this.log(`table ${f.table} moved`);
    }
    this.failures = 0;
  }

  onWelcome(f) {
    this.failures = 0;
    this.ws.welcomed = true;
    // The site's origins, the only places `moved` may send us (absent: none).
    this.origins = new Set((Array.isArray(f.origins) ? f.origins : []).map(originOf).filter(Boolean));
    const games = f.games ?? [DEFAULT_GAME]; // a server that predates `games` plays the default game alone
    if (this.create && !this.table && !games.includes(this.game)) {
      return this.fail(new Error(`this server plays ${games.join(', ')}; not ${this.game}`));
    }
    // What the game says of itself (absent from a server that predates it: the server judges).
    const seats = f.game_info?.[this.game]?.seats;
    if (this.create && !this.table && seats && !(this.create >= seats.min && this.create <= seats.max)) {
      return this.fail(new Error(`a table of ${this.game} has ${seats.min} to ${seats.max} seats, not ${this.create}`));
    }
    if (this.apiToken) this.request('sign_in', { token: this.apiToken }); // answered before the next frame is read
    this.request('hello', { name: this.name, client: 'oriente-js-bot/0.1' });
    if (!this.token && this.joinSent) {
      this.join(); // the reply to our join was lost with the connection: retry it, same nonce
    } else if (this.byAccount && !this.token) {
      this.stats.resumes++;
      this.request('resume', { table: this.table, token: '', after: this.lastSeq });
      for (const m of this.unacked.values()) { // same ids: applied at most once
        this.stats.resent++;
        this.send(m);
      }
    } else if (this.token) {
      this.stats.resumes++;
      // The nonce is the seat's own share of the seed for a seat it did not
      // join itself (a tournament's reserved seat): counted once, before the
      // start, and ignored otherwise (PROTOCOL.md 3, resume).
      this.request('resume', { table: this.table, token: this.token, after: this.lastSeq, nonce: this.nonce });
      for (const m of this.unacked.values()) { // same ids: applied at most once
        this.stats.resent++;
        this.send(m);
      }
    } else if (this.create && !this.table) {
      this.request('create_table', { seats: this.create, name: `${this.name}'s table`, public: true,
                                     seed: this.tableSeed, timers: BOT_TIMERS, game: this.game });
    } else if (this.table) {
      this.join();
    } else {
      this.request('list_tables', {});
    }
  }

  join() {
    this.joinSent = true;
    this.joins++;
    this.request('join', { table: this.table, name: this.name, nonce: this.nonce });
  }

  onOk(f) {
    if (this.unacked.delete(f.re)) {
      if (f.duplicate) this.stats.duplicates++;
      return this.onPrompt(this.prompt);
    }
    const req = this.pending.get(f.re);
    this.pending.delete(f.re);
    if (req?.t === 'sign_in') {
      this.account = f.account;
      this.log(`signed in as ${f.account.name}${f.account.bot ? ' (bot)' : ''}`);
    } else if (req?.t === 'resume' && this.byAccount && !this.token) {
      this.seat = f.you;
      this.log(`took again seat ${f.you} at ${this.table}, the account's`);
    } else if (req?.t === 'create_table') {
      this.table = f.table;
      this.log(`created table ${f.table}`);
      this.join();
    } else if (req?.t === 'join') {
      this.seat = f.seat;
      this.token = f.token;
      this.log(`seated at ${this.table} as seat ${f.seat}`);
    } else if (req?.t === 'list_tables') {
      const free = f.tables.find((t) => t.status === 'open' && t.settings?.timers?.zero_wait
                                       && (t.game ?? DEFAULT_GAME) === this.game && t.seats.some((s) => s === null));
      if (free) {
        this.table = free.table;
        this.join();
      } else if (f.next) {
        // The listing comes in pages (PROTOCOL.md 3, list_tables): read on.
        this.request('list_tables', { cursor: f.next, limit: 200 });
      } else {
        const ws = this.ws;
        setTimeout(() => { if (ws === this.ws && !this.done) this.request('list_tables', {}); }, 200);
      }
    }
  }

  onError(f) {
    if (this.unacked.delete(f.re) && BENIGN_ERRORS.has(f.code)) {
      this.stats.benign++;
      return this.onPrompt(this.prompt);
    }
    const req = this.pending.get(f.re);
    this.pending.delete(f.re);
    if (req?.t === 'sign_in') return this.fail(new ProtocolError(f)); // a revoked or unknown token
    if (req?.t === 'join' && this.lobby && LOBBY_RETRY.has(f.code)) {
      this.joinSent = false;
    // A secret nonce makes the join safe to retry: sent again with it, a join whose
    // reply was lost gets the same seat and token back (PROTOCOL.md 3, join).
    this.nonce = randomBytes(18).toString('base64url');
    this.joins = 0;
      this.table = null;
      this.request('list_tables', {});
      return;
    }
    this.fail(new ProtocolError(f));
  }

  onSnapshot(f) {
    if (f.table !== this.table) return;
    this.trace.push({ kind: 'snapshot', seq: f.seq });
    if (f.table_info) this.tableGame = f.table_info.game ?? DEFAULT_GAME; // the game this table plays
    if (this.lastSeq !== null && f.seq < this.lastSeq) this.stats.gaps++;
    this.lastSeq = f.seq;
    if (f.table_info?.status === 'finished' && f.table_info.result) return this.finish(f.table_info.result);
    if (f.table_info?.status === 'failed') return this.fail(new Error(`table ${f.table} failed`));
    const mine = this.seat === null ? null : f.table_info?.seats?.[this.seat];
    if (mine && (mine.away || mine.proxied)) this.setAway(true);
    return this.onPrompt(f.prompt);
  }

  onEvents(f) {
    if (f.table !== this.table) return;
    for (const e of f.events ?? []) {
      this.trace.push({ kind: 'event', seq: e.seq, type: e.type, history: f.history === true });
      if (this.lastSeq !== null && e.seq !== this.lastSeq + 1) {
        this.stats.gaps++;
        this.log(`sequence gap: ${this.lastSeq} then ${e.seq}`);
      }
      this.lastSeq = Math.max(this.lastSeq ?? 0, e.seq);
      if (e.seat === this.seat && e.type in ATTENDANCE) this.setAway(ATTENDANCE[e.type]);
      if (e.type === 'TableFinished') return this.finish(e.result);
      // A server error ended the table (PROTOCOL.md 9): no result will come.
      if (e.type === 'TableFailed') return this.fail(new Error(`table ${f.table} failed: ${e.message}`));
      // Nobody held a seat at it for long (docs/table.md T6.1): its game never began.
      if (e.type === 'TableAbandoned') return this.fail(new Error(`table ${f.table} was abandoned`));
      if (f.history !== true) this.tellDeal(e);
    }
    this.hooks.onEvents?.(f, this);
    // An unchanged prompt (prompt_changed false) was already considered; older servers send no flag.
    if (f.history !== true && f.prompt_changed !== false) this.onPrompt(f.prompt);
  }

  /** The table stopped (or started again) waiting for our seat. We are
   * reading its frames, so the seat is attended: say so with `back`, or every
   * prompt of an away seat would time out at once. */
  setAway(away) {
    if (away && !this.away) {
      this.stats.backs++;
      this.request('back', { table: this.table });
    }
    this.away = away;
  }

  /** Reasons and counter-offers (R8.8) travel as codes on the deal events: say them. */
  tellDeal(e) {
    if (e.type === 'DealClosed' && e.reason === 'declined' && e.why) {
      const params = Object.entries(e.why).filter(([k]) => k !== 'code').map(([k, v]) => `${k}=${v}`).join(' ');
      this.log(`deal ${e.deal} declined by seat ${e.seat}: ${e.why.code}${params ? ` (${params})` : ''}`);
    } else if (e.type === 'DealProposed' && e.counter_to != null) {
      this.log(`deal ${e.deal} by seat ${e.proposer} counters deal ${e.counter_to}`);
    }
  }

  onPrompt(p) {
    this.prompt = p;
    if (this.hooks.onPrompt?.(p, this) === false) return;
    // One command in flight at a time: its reply comes after the events it caused, so the
    // newest prompt then says whether the decision wants more (a turn of several moves) or has moved on.
    if (!p || this.seat === null || this.unacked.size > 0) return;
    // A deal offered to us is declined with its reason, once (legal lists our deal answers).
    const offer = (p.legal ?? []).find((c) => c?.type === 'DeclineDeal' && !this.declined.has(c.deal));
    if (offer) {
      this.declined.add(offer.deal);
      const m = { t: 'act', id: this.newId(), table: this.table, cmd: { ...offer, why: DECLINE_REASON } };
      this.unacked.set(m.id, m);
      this.stats.acts++;
      return this.send(m);
    }
    if (p.pivot !== this.seat) return;
    const key = `${p.id}:${p.pivot}:${this.lastSeq}`;
    if (this.answered.has(key)) return;
    const options = (p.legal ?? []).filter((c) => c && typeof c === 'object' && c.decision === p.id);
    const rules = GAMES.get(this.tableGame ?? this.game);
    if (options.length === 0 && rules?.answers) options.push(...rules.answers(p, this.rng));
    if (options.length === 0) return;
    this.answered.add(key);
    const cmd = options[Math.floor(this.rng() * options.length)];
    const m = { t: 'act', id: this.newId(), table: this.table, cmd };
    this.unacked.set(m.id, m);
    this.stats.acts++;
    this.send(m);
  }
}

/**
 * Enter a tournament or an arena (PROTOCOL.md 21) and play every table it seats us at:
 * `entry` is the entry token from `tournament_register` (registered here with `name` when
 * null). Follows the tournament with brief frames; each new `you.table` is played by a Bot
 * that resumes the seat with the seat token the server handed out. Resolves with the games'
 * results once the tournament has finished and we have no table left.
 */
export async function playTournament(server, tournament, { entry = null, name = 'jsbot', rng = makeRng(),
                                                           log = () => {} } = {}) {
  if (!entry) entry = (await request(server, { t: 'tournament_register', tournament, name, kind: 'bot' })).token;
  const results = [];
  const played = new Set();
  let queue = Promise.resolve();
  await new Promise((resolve, reject) => {
    const follow = () => {
      const ws = new WebSocket(server, [SUBPROTOCOL], { perMessageDeflate: false });
      ws.on('open', () => ws.send(encode({ t: 'tournament_watch', id: `w-${randomBytes(3).toString('hex')}`,
                                           tournament, token: entry, full: false })));
      ws.on('message', (data) => {
        const f = decode(data);
        if (f.t === 'error') return reject(new ProtocolError(f));
        if (f.t !== 'tournament') return;
        const you = f.state.you ?? {};
        if (you.table && !played.has(you.table)) {
          played.add(you.table);
          log(`seated at ${you.table}, seat ${you.seat}`);
          const bot = new Bot({ server, table: you.table, name, rng, log });
          Object.assign(bot, { token: you.token, seat: you.seat, lobby: false });
          queue = queue.then(() => bot.play()).then((r) => { results.push(r); });
        } else if (f.state.finished && !you.table) {
          ws.close(1000);
          queue.then(resolve, reject);
        }
      });
      ws.on('close', (code) => { if (code !== 1000) setTimeout(follow, 200); });
      ws.on('error', () => {});
    };
    follow();
  });
  return results;
}

const USAGE = 'usage: node bot.js --server ws://HOST:PORT [--table ID | --create SEATS | --tournament ID] '
            + '[--game GAME] [--name NAME] [--seed N] [--games N] [--token API_TOKEN [--resume]] [--entry ENTRY_TOKEN] '
            + '[--quiet]';

function intOption(values, key, fallback, min) {
  if (values[key] === undefined) return fallback;
  const n = Number(values[key]);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${key} must be an integer >= ${min}`);
  return n;
}

export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: {
    server: { type: 'string' }, table: { type: 'string' }, create: { type: 'string' },
    name: { type: 'string' }, seed: { type: 'string' }, games: { type: 'string' },
    game: { type: 'string', default: DEFAULT_GAME }, token: { type: 'string' },
    tournament: { type: 'string' }, entry: { type: 'string' },
    quiet: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    resume: { type: 'boolean', default: false },
  } });
  if (values.help) return console.log(USAGE);
  const create = intOption(values, 'create', null, 1); // the server says which seat counts the game allows
  const seed = intOption(values, 'seed', null, 0);
  const games = intOption(values, 'games', 1, 1);
  if (!values.server) throw new Error(`--server is required\n${USAGE}`);
  if (values.table && create) throw new Error('give --table or --create, not both');
  if (values.table && games > 1) throw new Error('--table plays one table: use --create or the lobby for --games > 1');
  const rng = makeRng(seed ?? undefined);
  // Names at one table must differ (PROTOCOL.md 3, join): several bots started alike do.
  values.name ??= `jsbot-${randomBytes(2).toString('hex')}`;
  const log = values.quiet ? () => {} : (s) => console.error(`[${values.name}] ${s}`);
  if (values.tournament) {
    const results = await playTournament(values.server, values.tournament,
                                          { entry: values.entry ?? null, name: values.name, rng, log });
    for (const r of results) console.log(JSON.stringify(r));
    return;
  }
  for (let g = 0; g < games; g++) {
    // The table's own seed is the server's: a chosen one would make the table
    // seeded, and so private, out of the lobby's reach (PROTOCOL.md 3).
    const bot = new Bot({ server: values.server, table: values.table ?? null, create, name: values.name,
                          rng, game: values.game, log,
                          apiToken: values.token ?? process.env.ORIENTE_TOKEN ?? null, resume: values.resume });
    console.log(JSON.stringify(await bot.play()));
  }
}

const invoked = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err.frame ? JSON.stringify(err.frame) : err.message);
    process.exit(1);
  });
}
