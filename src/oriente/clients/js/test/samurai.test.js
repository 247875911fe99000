// Samurai played by the bot against a real server, with what the game adds (games/samurai.js).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Bot, createTable, request } from '../bot.js';
import { GAME_TIMEOUT_MS, assertSequence, startServer, stopServer, withTimeout } from './server.js';

let server; // {proc, url, stderr, workDir}

before(async () => { server = await startServer(); });

after(async () => {
  if (server) assert.ok([0, 'SIGTERM'].includes(await stopServer(server)), `server stopped badly: ${server.stderr}`);
});

test('two bots play a game of samurai: the tile choice from `choose`, several tiles in one turn', async () => {
  const table = await createTable(server.url, { seats: 2, seed: 5, game: 'samurai' });
  const bots = [0, 1].map((i) => new Bot({ server: server.url, table, name: `sam${i}`, seed: 50 + i, game: 'samurai' }));
  const results = await withTimeout(Promise.all(bots.map((b) => b.play())), GAME_TIMEOUT_MS, `samurai table ${table}`);
  for (const r of results) assert.deepEqual(r.ranks, results[0].ranks, 'every bot saw the same result');
  bots.forEach(assertSequence);
  const { record } = await request(server.url, { t: 'record', table });
  assert.equal(record.game, 'samurai');
  const chosen = record.commands.filter(([seat, c]) => seat >= 0 && c.type === 'ChooseTiles');
  assert.equal(chosen.length, 2, 'each bot chose its own tiles (S2.3), none timed out');
});
