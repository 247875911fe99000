// `moved` (PROTOCOL.md 4) is followed only to the site's own origins, the list the
// server announces in `welcome.origins`: a forged `moved` cannot send the bot, with its
// seat token and API token, to anybody else's listener, even on the same host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode } from '@msgpack/msgpack';
import { WebSocketServer } from 'ws';
import { Bot, originOf } from '../bot.js';

/** A scripted listener on a free port of 127.0.0.1: `script(ws, n)` runs for its n-th connection. */
function listener(script) {
  return new Promise((resolve) => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'oriente.v1' });
    const state = { wss, connections: 0, frames: [] };
    wss.on('connection', (ws) => {
      state.connections += 1;
      ws.on('message', (data) => state.frames.push(decode(data)));
      script(ws, state.connections);
    });
    wss.on('listening', () => {
      state.url = `ws://127.0.0.1:${wss.address().port}`;
      resolve(state);
    });
  });
}

const welcome = (origins) => encode({ t: 'welcome', protocol: 'oriente.v1', version: 1, server: 'script',
                                      limits: {}, games: ['oriente'], origins });

async function bounce(target, { listed }) {
  // The site: its first connection is told the table moved to `target` and closed (1012);
  // the next one is where the bot should come back to when `target` is not the site's.
  const site = await listener((ws, n) => {
    ws.send(welcome(listed ? [site.url, target.url] : [site.url]));
    if (n === 1) {
      setTimeout(() => {
        ws.send(encode({ t: 'moved', table: 'T', message: 'go', url: `${target.url}/` }));
        ws.close(1012);
      }, 50);
    }
  });
  const bot = new Bot({ server: site.url, table: 'T', apiToken: 'api-secret', name: 'b' });
  bot.play().catch(() => {});
  const deadline = Date.now() + 10000;
  // Until it came back, or reached `target` and said something there (it signs in first).
  while ((site.connections + target.connections < 2 || (target.connections && !target.frames.length))
         && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  bot.done = true;
  bot.ws?.terminate();
  site.wss.close();
  return site;
}

test('originOf: scheme, host and port; the default port left out', () => {
  assert.equal(originOf('ws://127.0.0.1:80/x'), 'ws://127.0.0.1');
  assert.equal(originOf('WSS://Play.Example.org:443/'), 'wss://play.example.org');
  assert.equal(originOf('ws://127.0.0.1:8765'), 'ws://127.0.0.1:8765');
  assert.notEqual(originOf('ws://127.0.0.1:8765'), originOf('ws://127.0.0.1:8766'));
  assert.equal(originOf('https://x'), null);
  assert.equal(originOf('nonsense'), null);
});

test('a moved to an origin the site did not announce is not followed', async () => {
  const foreign = await listener((ws) => ws.send(welcome([])));
  const site = await bounce(foreign, { listed: false });
  foreign.wss.close();
  assert.equal(foreign.connections, 0, 'the bot connected to a listener that is not the site');
  assert.equal(site.connections, 2, 'the bot reconnects where it was');
  assert.ok(!foreign.frames.some((f) => f.token === 'api-secret'));
});

test('a moved to one of the site origins is followed', async () => {
  const other = await listener((ws) => ws.send(welcome([])));
  const site = await bounce(other, { listed: true });
  other.wss.close();
  assert.equal(other.connections, 1);
  assert.equal(site.connections, 1);
  assert.equal(other.frames[0].t, 'sign_in'); // it signs in there, as anywhere on its site
});
