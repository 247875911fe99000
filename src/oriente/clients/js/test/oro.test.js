// Oro played by the bot against a real server: it needs nothing of the game's own (no games/ file).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Bot, createTable, request } from '../bot.js';
import { GAME_TIMEOUT_MS, assertSequence, startServer, stopServer, withTimeout } from './server.js';

let server; // {proc, url, stderr, workDir}

before(async () => { server = await startServer(); });

after(async () => {
  if (server) assert.ok([0, 'SIGTERM'].includes(await stopServer(server)), `server stopped badly: ${server.stderr}`);
});

test('three bots play a game of oro, several commands in one turn', async () => {
  const table = await createTable(server.url, { seats: 3, seed: 7, game: 'oro', options: { gods: true } });
  const bots = [0, 1, 2].map((i) => new Bot({ server: server.url, table, name: `oro${i}`, seed: 70 + i, game: 'oro' }));
  const results = await withTimeout(Promise.all(bots.map((b) => b.play())), GAME_TIMEOUT_MS, `oro table ${table}`);
  for (const r of results) assert.deepEqual(r.ranks, results[0].ranks, 'every bot saw the same result');
  bots.forEach(assertSequence);
  const { record } = await request(server.url, { t: 'record', table });
  assert.equal(record.game, 'oro');
  const cmds = record.commands.filter(([seat]) => seat >= 0);
  assert.ok(cmds.some(([seat, c], i) => i > 0 && cmds[i - 1][0] === seat && cmds[i - 1][1].decision === c.decision),
            'a turn took more than one command (O8.3)');
});
