// Deals offered to the bot (PROTOCOL.md 7): it declines each once, with its reason as a code
// (R8.8), and only when no command of its own is in flight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode } from '@msgpack/msgpack';
import { WebSocketServer } from 'ws';
import { Bot, DECLINE_REASON } from '../bot.js';

const WELCOME = { t: 'welcome', protocol: 'oriente.v1', version: 1, server: 'script', limits: {}, games: ['oriente'] };
const PROMPT = { id: 3, kind: 'window', topic: 'negotiation', pivot: null, asked: [1], early: [1],
                 legal: [{ type: 'AcceptDeal', deal: 7 }, { type: 'DeclineDeal', deal: 7 }] };

function scriptedTable() {
  return new Promise((resolve) => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'oriente.v1' });
    const acts = [];
    wss.on('connection', (ws) => {
      ws.send(encode(WELCOME));
      ws.on('message', (data) => {
        const m = decode(data);
        if (m.t === 'join') {
          ws.send(encode({ t: 'ok', re: m.id, table: m.table, seat: 1, token: 'tok', seq: 5 }));
          ws.send(encode({ t: 'snapshot', table: m.table, seq: 5, prompt: PROMPT, view: null,
                           table_info: { game: 'oriente', status: 'running', seats: [] } }));
        } else if (m.t === 'act') {
          acts.push(m);
          ws.send(encode({ t: 'ok', re: m.id, seq: 6 }));
        }
      });
    });
    wss.on('listening', () => resolve({ wss, acts, url: `ws://127.0.0.1:${wss.address().port}` }));
  });
}

test('a deal offered to the bot is declined once, with its reason', async () => {
  const site = await scriptedTable();
  const bot = new Bot({ server: site.url, table: 'T1', name: 'b', quiet: true });
  bot.play().catch(() => {});
  const deadline = Date.now() + 10000;
  while (site.acts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200)); // time for a second answer, which must not come
  bot.done = true;
  bot.ws?.terminate();
  site.wss.close();
  assert.deepEqual(site.acts.map((a) => a.cmd), [{ type: 'DeclineDeal', deal: 7, why: DECLINE_REASON }]);
  assert.deepEqual(DECLINE_REASON, { code: 'worth_less' });
});
