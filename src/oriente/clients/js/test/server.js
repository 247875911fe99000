// What the tests that play against a real server share: the server, started
// as a subprocess on a free port and stopped at the end, and checks of what a
// bot saw. Not a test file of its own (node --test finds none in it).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const JS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_CMD = process.env.ORIENTE_SERVER_CMD ?? resolve(JS_DIR, '../../../../.venv/bin/oriente');
export const VECTORS = resolve(JS_DIR, '../../../../protocol/vectors/vectors.json');
export const GAME_TIMEOUT_MS = 60000;

/** `oriente serve` on a free port: {proc, url, stderr, workDir} once it listens. */
export function startServer() {
  const workDir = mkdtempSync(join(tmpdir(), 'oriente-js-'));
  const proc = spawn(SERVER_CMD, ['serve', '--port', '0', '--store', join(workDir, 's.sqlite'), '--quiet'],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
  const state = { proc, url: null, stderr: '', workDir };
  proc.stderr.on('data', (d) => { state.stderr += d; });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${state.stderr}`)), 20000);
    proc.on('error', (err) => { clearTimeout(timer); reject(err); });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${state.stderr}`)); });
    createInterface({ input: proc.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^serving (ws:\/\/\S+)/.exec(line);
      if (!m) return reject(new Error(`unexpected first line: ${line}`));
      state.url = m[1];
      return resolvePromise(state);
    });
  });
}

/** Stop it (SIGTERM, then SIGKILL after 15 s) and remove its files; its exit code or signal. */
export async function stopServer(server) {
  const { proc } = server;
  const code = proc.exitCode !== null || proc.signalCode !== null ? proc.exitCode : await new Promise((resolvePromise) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), 15000);
    proc.once('exit', (exit, signal) => { clearTimeout(kill); resolvePromise(exit ?? signal); });
    proc.kill('SIGTERM');
  });
  rmSync(server.workDir, { recursive: true, force: true });
  return code;
}

export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every seq a bot saw: strictly increasing and without gaps; a snapshot repeats the last seq seen. */
export function assertSequence(bot) {
  const { trace } = bot;
  assert.equal(trace[0].kind, 'snapshot', 'the join snapshot comes first');
  let last = trace[0].seq;
  for (const item of trace.slice(1)) {
    if (item.kind === 'snapshot') assert.equal(item.seq, last, `${bot.name}: a snapshot at ${item.seq} after seq ${last}`);
    else assert.equal(item.seq, last + 1, `${bot.name}: seq ${item.seq} after ${last}`);
    last = item.seq;
  }
  assert.equal(trace.at(-1).type, 'TableFinished', `${bot.name}: the last event is TableFinished`);
  assert.equal(bot.stats.gaps, 0);
}
