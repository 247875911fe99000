// What a game says of itself (`welcome.game_info`, PROTOCOL.md 4): a bot asked to
// create a table with a seat count the game does not take says so before asking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode } from '@msgpack/msgpack';
import { WebSocketServer } from 'ws';
import { Bot } from '../bot.js';

function server(welcome) {
  return new Promise((resolve) => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'oriente.v1' });
    const frames = [];
    wss.on('connection', (ws) => {
      ws.on('message', (data) => frames.push(decode(data)));
      ws.send(encode(welcome));
    });
    wss.on('listening', () => resolve({ wss, frames, url: `ws://127.0.0.1:${wss.address().port}` }));
  });
}

const WELCOME = { t: 'welcome', protocol: 'oriente.v1', version: 1, server: 'script', limits: {}, games: ['oriente'],
                  game_info: { oriente: { seats: { min: 4, max: 12, default: 4 }, options: [], windows: true } } };

test('a seat count the game does not take is refused before anything is created', async () => {
  const site = await server(WELCOME);
  const bot = new Bot({ server: site.url, create: 2, name: 'b' });
  const late = new Promise((resolve) => { setTimeout(() => resolve('no refusal within 10 s'), 10000).unref(); });
  const outcome = await Promise.race([bot.play().then(() => 'played', (err) => err.message), late]);
  bot.done = true;
  bot.ws?.terminate();
  site.wss.close();
  assert.match(outcome, /a table of oriente has 4 to 12 seats, not 2/);
  assert.ok(!site.frames.some((f) => f.t === 'create_table'));
});

test('a seat count the game takes is asked for', async () => {
  const site = await server(WELCOME);
  const bot = new Bot({ server: site.url, create: 4, name: 'b' });
  bot.play().catch(() => {});
  const deadline = Date.now() + 10000;
  while (!site.frames.some((f) => f.t === 'create_table') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  bot.done = true;
  bot.ws?.terminate();
  site.wss.close();
  assert.equal(site.frames.find((f) => f.t === 'create_table')?.seats, 4);
});
