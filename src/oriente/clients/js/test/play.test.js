// Plays full games against a real server started as a subprocess.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { decode, encode } from '@msgpack/msgpack';
import { BOT_TIMERS, Bot, createTable, makeRng, playTournament, request } from '../bot.js';
import { GAME_TIMEOUT_MS, JS_DIR, VECTORS, assertSequence, startServer, stopServer, withTimeout } from './server.js';

let server; // {proc, url, stderr, workDir}

async function playTable({ seed, hooks = [] }) {
  const table = await createTable(server.url, { seats: 4, seed });
  const bots = [0, 1, 2, 3].map((i) => new Bot({ server: server.url, table, name: `js${i}`, seed: seed * 10 + i,
                                                 hooks: hooks[i] ?? {} }));
  const results = await withTimeout(Promise.all(bots.map((b) => b.play())), GAME_TIMEOUT_MS, `table ${table}`);
  const seats = results.map((r) => r.seat).sort();
  assert.deepEqual(seats, [0, 1, 2, 3]);
  for (const r of results) {
    assert.equal(r.table, table);
    assert.deepEqual(r.ranks, results[0].ranks, 'every bot saw the same result');
    assert.equal(r.ranks.length, 4);
    assert.ok(r.ranks.every((k) => Number.isInteger(k) && k >= 1 && k <= 4));
  }
  bots.forEach(assertSequence);
  const { record } = await request(server.url, { t: 'record', table });
  assert.equal(record.format, 'oriente.record.v1');
  assert.deepEqual(record.result.ranks, results[0].ranks);
  return { table, bots, results };
}

before(async () => { server = await startServer(); });

after(async () => {
  if (server) assert.ok([0, 'SIGTERM'].includes(await stopServer(server)), `server stopped badly: ${server.stderr}`);
});

test('the codec reproduces the golden frames', { skip: !existsSync(VECTORS) && 'no vectors.json' }, () => {
  const vectors = JSON.parse(readFileSync(VECTORS, 'utf8'));
  let checked = 0;
  for (const v of vectors) {
    if (v.hex === null || v.frame !== 'binary' || v.valid === false) continue;
    const bytes = Buffer.from(v.hex, 'hex');
    assert.deepEqual(decode(bytes), v.decoded, v.name);
    if (v.direction === 'client') {
      const hex = (m) => Buffer.from(encode(m)).toString('hex');
      assert.equal(hex(v.decoded), v.hex, v.name);
      // `canonical` tells whether the *normalized* message re-encodes to the same bytes.
      assert.equal(hex(v.normalized) === v.hex, v.canonical, v.name);
    }
    checked++;
  }
  assert.ok(checked > 50);
});

test('four bots play three complete games', async () => {
  for (let g = 1; g <= 3; g++) {
    const { bots } = await playTable({ seed: g });
    for (const b of bots) assert.equal(b.stats.connects, 1, 'no reconnects needed');
    assert.ok(bots.some((b) => b.stats.acts > 0));
  }
});

test('a bot whose socket dies mid-game resumes and finishes', async () => {
  let dropped = false;
  const onEvents = (frame, bot) => {
    // Drop just after the events of our own pending act arrived, before its ok: the resent act is a duplicate.
    if (dropped || bot.stats.acts < 2 || bot.unacked.size === 0) return;
    if (frame.events.some((e) => e.seat === bot.seat)) {
      dropped = true;
      bot.dropConnection();
    }
  };
  const { bots } = await playTable({ seed: 42, hooks: [{ onEvents }] });
  const [victim] = bots;
  assert.ok(dropped, 'the socket was dropped mid-game');
  assert.equal(victim.stats.connects, 2);
  assert.equal(victim.stats.resumes, 1);
  assert.ok(victim.stats.resent >= 1, 'the unacknowledged act was sent again');
  const missed = victim.trace.filter((t) => t.history);
  assert.ok(missed.length > 0, 'missed events came back as history');
  // The act was applied before the drop, so its retry is answered `duplicate` (unless the game ended meanwhile).
  assert.ok(victim.stats.duplicates === 1 || missed.at(-1).type === 'TableFinished', 'the retry was recognised');
});

test('a join whose reply is lost is retried with its nonce and keeps one seat', async () => {
  let lost = null;
  const onFrame = (f, bot) => {
    if (lost || f.t !== 'ok' || !f.token) return undefined;
    lost = f; // the connection dies with the join's ok on the way
    bot.dropConnection();
    return false;
  };
  const { bots, results } = await playTable({ seed: 7, hooks: [{ onFrame }] });
  const [retrier] = bots;
  assert.ok(lost, 'the join reply was dropped');
  assert.equal(retrier.joins, 2);
  assert.equal(retrier.seat, lost.seat);
  assert.equal(retrier.token, lost.token, 'the same token came back');
  assert.equal(new Set(results.map((r) => r.seat)).size, 4, 'four bots, four seats');
});

test('a bot marked away says it is back and plays on', async () => {
  // Seat 0 lets its first prompt pass (away_after 1); seeing its SeatAway, it sends `back`.
  const timers = { prompt_ms: 800, window_ms: 0, bank_ms: 0, bank_refill_ms: 0, zero_wait: true, away_after: 1 };
  const { table } = await request(server.url, { t: 'create_table', seats: 4, seed: 8, public: false, timers });
  const sleepy = { onPrompt: (p, bot) => (bot.stats.backs > 0 ? undefined : false) };
  const bots = [0, 1, 2, 3].map((i) => new Bot({ server: server.url, table, name: `aw${i}`, seed: 80 + i,
                                                 hooks: i === 0 ? sleepy : {} }));
  const results = await withTimeout(Promise.all(bots.map((b) => b.play())), GAME_TIMEOUT_MS, `table ${table}`);
  const [sleeper] = bots;
  assert.equal(results.length, 4);
  assert.equal(sleeper.stats.backs, 1, 'one back, after the one SeatAway');
  // A prompt that reached it before its back reached the table may be answered late; no more.
  assert.ok(sleeper.stats.benign <= 2 && sleeper.stats.acts > sleeper.stats.benign);
  const types = sleeper.trace.filter((t) => t.kind === 'event').map((t) => t.type);
  assert.ok(types.indexOf('SeatAway') < types.indexOf('SeatBack'));
  assert.equal(types.filter((t) => t === 'SeatAway').length, 1, 'the table waited for it again');
});

test('the command line plays two games in create and lobby modes', async () => {
  const run = (args) => new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [join(JS_DIR, 'bot.js'), '--server', server.url, '--games', '2', ...args]);
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => { out += d; });
    proc.stderr.on('data', (d) => { err += d; });
    proc.on('error', reject);
    proc.on('exit', (code) => resolvePromise({ code, out, err }));
  });
  const runs = await withTimeout(Promise.all([
    run(['--create', '4', '--name', 'creator', '--seed', '5']),
    ...[1, 2, 3].map((i) => run(['--name', `lobby${i}`, '--seed', String(i)])),
  ]), 2 * GAME_TIMEOUT_MS, 'command-line bots');
  const lines = runs.map(({ code, out, err }) => {
    assert.equal(code, 0, err);
    const results = out.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(results.length, 2);
    return results;
  });
  for (let g = 0; g < 2; g++) {
    assert.deepEqual(lines.map((r) => r[g].seat).sort(), [0, 1, 2, 3]);
    for (const r of lines) assert.deepEqual(r[g].ranks, lines[0][g].ranks);
  }
});

test('a bot asking for a game the server does not play is told which it plays', async () => {
  const refused = new Bot({ server: server.url, create: 3, name: 'chess', game: 'chess' });
  await assert.rejects(refused.play(), /this server plays [a-z, ]+; not chess/);
});

test('bots signed in with API tokens play a rated table and move the leaderboard', async () => {
  const person = await request(server.url, { t: 'sign_up', name: 'js-owner', password: 'correct horse' });
  const tokens = [];
  for (let i = 0; i < 4; i++) {
    const made = await request(server.url, { t: 'bot_token', bot: `js-bot-${i}` }, 10000, { token: person.token });
    assert.equal(made.account.bot, true);
    tokens.push(made.token);
  }
  const table = await createTable(server.url, { seats: 4, rated: true }); // a rated table's seed is the server's
  await assert.rejects(request(server.url, { t: 'join', table, name: 'anonymous' }),
                       (err) => err.frame?.code === 'auth/sign_in_required');
  const bots = tokens.map((apiToken, i) => new Bot({ server: server.url, table, name: `x${i}`, seed: i, apiToken }));
  await withTimeout(Promise.all(bots.map((b) => b.play())), GAME_TIMEOUT_MS, `rated table ${table}`);
  assert.deepEqual(bots.map((b) => b.account.name).sort(), ['js-bot-0', 'js-bot-1', 'js-bot-2', 'js-bot-3']);
  let board = [];
  for (let tries = 0; tries < 100 && board.length < 4; tries++) { // the results are stored just after the end
    board = (await request(server.url, { t: 'leaderboard', game: 'oriente' })).leaderboard;
    if (board.length < 4) await new Promise((r) => { setTimeout(r, 50); });
  }
  assert.equal(board.length, 4);
  assert.ok(board.every((e) => e.bot && e.games === 1 && e.provisional));
});

test('four bots enter a tournament and play its two rounds through to the standings', async () => {
  const created = await request(server.url, { t: 'tournament_create', settings: {
    name: 'js cup', rounds: 2, table_sizes: [4], timers: BOT_TIMERS, auto_rounds: true, seed: 5 } });
  const { tournament, organiser_token: organiser } = created;
  const entries = [];
  for (let i = 0; i < 4; i++) {
    entries.push((await request(server.url, { t: 'tournament_register', tournament, name: `t${i}`, kind: 'bot' })).token);
  }
  const playing = entries.map((entry, i) => playTournament(server.url, tournament, { entry, name: `t${i}`, rng: makeRng(i) }));
  await request(server.url, { t: 'tournament_direct', tournament, token: organiser, action: 'start_round' });
  const results = await withTimeout(Promise.all(playing), 2 * GAME_TIMEOUT_MS, `tournament ${tournament}`);
  assert.deepEqual(results.map((r) => r.length), [2, 2, 2, 2], 'every bot played both rounds');
  const res = await fetch(`${server.url.replace('ws://', 'http://')}/tournament/${tournament}/export.json`);
  const state = await res.json();
  assert.equal(state.finished, true);
  const total = state.standings.reduce((s, r) => s + r.points, 0);
  assert.ok(Math.abs(total - 4) < 1e-4, `two tables of 4 hand out 2 points each, not ${total}`);
  // Every reserved seat got the bot's own nonce (its resume), none the server's (docs/table.md T7).
  const records = await (await fetch(`${server.url.replace('ws://', 'http://')}/tournament/${tournament}/records.json`)).json();
  assert.equal(records.records.length, 2);
  for (const { record } of records.records) assert.deepEqual(record.commitment.supplied, [], record.table);
});

test('signed in, a bot takes again the seat its account holds, without the seat token, across a drop', async () => {
  // A person's session token signs in as well as a bot's API token (PROTOCOL.md 19).
  const up = await request(server.url, { t: 'sign_up', name: 'resumer', password: 'correct horse' });
  const table = await createTable(server.url, { seats: 4, seed: 11 });
  // The seat is taken on one connection, which then closes: the account holds it.
  const joined = await request(server.url, { t: 'join', table, name: 'resumer', seat: 0 }, 10000, { token: up.token });
  assert.equal(joined.seat, 0);
  assert.throws(() => new Bot({ server: server.url, table, resume: true }), /apiToken and table/);
  const sent = [];
  let dropped = false;
  const onEvents = (f, bot) => {
    if (!dropped && bot.seat === 0 && bot.stats.acts >= 2) {
      dropped = true;
      bot.dropConnection();
    }
  };
  const mine = new Bot({ server: server.url, table, name: 'resumer', seed: 3, apiToken: up.token, resume: true,
                         hooks: { onEvents, onSend: (m) => sent.push(m) } });
  const others = [1, 2, 3].map((i) => new Bot({ server: server.url, table, name: `other${i}`, seed: 30 + i }));
  const [result] = await withTimeout(Promise.all([mine, ...others].map((b) => b.play())), GAME_TIMEOUT_MS,
                                     `table ${table}`);
  assert.equal(result.seat, 0, 'the account\'s seat, taken on the other connection');
  assert.equal(mine.account.name, 'resumer');
  assert.ok(dropped && mine.stats.connects >= 2, 'the connection dropped and came back');
  const resumes = sent.filter((m) => m.t === 'resume');
  assert.ok(resumes.length >= 2 && resumes.every((m) => m.token === '' && m.table === table),
            'every connection resumes by the account, never with a token');
  assert.ok(resumes[1].after > 0, 'the resume after the drop says what the bot saw');
  assert.ok(!sent.some((m) => m.t === 'join'), 'nothing is joined');
  assert.equal(mine.stats.acts > 0, true);
});
