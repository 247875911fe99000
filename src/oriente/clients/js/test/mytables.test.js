// my_tables (PROTOCOL.md 3): the bot asks with the ids it keeps, signed in with its
// API token first, and reads the tables with `you` from the reply.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode } from '@msgpack/msgpack';
import { WebSocketServer } from 'ws';
import { myTables, setEmail } from '../bot.js';

test('my_tables is sent signed in, and its tables come back as the server gave them', async () => {
  const frames = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'oriente.v1' });
  await new Promise((resolve) => wss.on('listening', resolve));
  wss.on('connection', (ws) => {
    ws.send(encode({ t: 'welcome', protocol: 'oriente.v1', version: 1, server: 'script', limits: {} }));
    ws.on('message', (data) => {
      const f = decode(data);
      frames.push(f);
      if (f.t === 'sign_in') ws.send(encode({ t: 'ok', re: f.id, account: { id: 'A1', name: 'b', bot: true } }));
      if (f.t === 'my_tables') {
        ws.send(encode({ t: 'ok', re: f.id, tables: [{ table: 'T1', game: 'oriente', status: 'running', you: 2 }] }));
      }
    });
  });
  const tables = await myTables(`ws://127.0.0.1:${wss.address().port}`, { tables: ['T1', 'T9'], token: 'secret' });
  wss.close();
  assert.deepEqual(tables, [{ table: 'T1', game: 'oriente', status: 'running', you: 2 }]);
  assert.deepEqual(frames.map((f) => f.t), ['sign_in', 'my_tables']);
  assert.deepEqual(frames[1].tables, ['T1', 'T9'], 'the ids kept go as they are');
  assert.equal(frames[1].limit, 20);
});

test('set_email is sent signed in with the person\'s token, and the address comes back as the server said', async () => {
  const frames = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'oriente.v1' });
  await new Promise((resolve) => wss.on('listening', resolve));
  wss.on('connection', (ws) => {
    ws.send(encode({ t: 'welcome', protocol: 'oriente.v1', version: 1, server: 'script', limits: {} }));
    ws.on('message', (data) => {
      const f = decode(data);
      frames.push(f);
      if (f.t === 'sign_in') ws.send(encode({ t: 'ok', re: f.id, account: { id: 'A1', name: 'eve', bot: false } }));
      if (f.t === 'set_email') {
        ws.send(encode({ t: 'ok', re: f.id, email: { address: f.address, confirmed: false, notify: true } }));
      }
    });
  });
  const email = await setEmail(`ws://127.0.0.1:${wss.address().port}`, 'eve@example.org', { token: 's_secret' });
  wss.close();
  assert.deepEqual(email, { address: 'eve@example.org', confirmed: false, notify: true });
  assert.deepEqual(frames.map((f) => f.t), ['sign_in', 'set_email']);
  assert.equal(frames[0].token, 's_secret');
});
