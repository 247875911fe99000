// The connection to the table server: one websocket speaking oriente.v1
// (PROTOCOL.md), msgpack frames, replies matched to requests by id, and
// the way back after a drop: reconnect with backoff, then resume every
// table with its token (or spectate) from the last sequence number seen.
import { decode, encode } from "@msgpack/msgpack";

const SUBPROTOCOL = "oriente.v1";

export class Net {
  constructor(url) {
    this.url = url;
    this.ws = null;
    this.up = false;
    this.welcome = null;
    this.prefix = Math.random().toString(36).slice(2, 8); // ids stay unique across reloads
    this.n = 0;
    this.waiting = new Map(); // id -> {resolve, reject, msg}
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.subs = new Map(); // table -> {token, after, views}
    this.failures = 0;
    this.closed = false;
    this.beforeRestore = null; // sent first on every connection (the page signs in again: account.js)
  }

  id() { this.n += 1; return `${this.prefix}-${this.n}`; }

  onFrame(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }
  onStatus(fn) { this.statusListeners.add(fn); return () => this.statusListeners.delete(fn); }
  status() { for (const fn of this.statusListeners) fn(this.up); }

  connect() {
    if (this.closed) return;
    let ws;
    try {
      ws = new WebSocket(this.url, SUBPROTOCOL);
    } catch (e) {
      this.retry();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onmessage = (ev) => {
      if (typeof ev.data === "string") return;
      let frame;
      try { frame = decode(new Uint8Array(ev.data)); } catch (e) { return; }
      this.dispatch(frame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      const was = this.up;
      this.up = false;
      if (was) this.status();
      this.retry();
    };
  }

  retry() {
    if (this.closed) return;
    this.failures += 1;
    const delay = Math.min(5000, 250 * 2 ** Math.min(this.failures, 5));
    setTimeout(() => this.connect(), delay);
  }

  async restore() {
    // Resume before anything else goes out: a command sent before its
    // resume would be refused (auth/not_seated) on the new connection.
    // Signing in goes first of all: the server answers frames in order.
    if (this.beforeRestore) this.beforeRestore(this);
    for (const [table, sub] of this.subs) {
      if (!sub.after) continue; // never loaded: the page enters it again itself
      const msg = typeof sub.token === "string" // "": the signed-in account's seat (PROTOCOL.md resume)
        ? { t: "resume", table, token: sub.token, after: sub.after, views: sub.views }
        : { t: "spectate", table, after: sub.after, views: sub.views };
      this.raw({ ...msg, id: this.id() });
    }
    for (const w of this.waiting.values()) if (w.resend) this.raw(w.msg);
  }

  dispatch(frame) {
    if (frame.t === "welcome") {
      this.welcome = frame;
      this.failures = 0;
      this.restore();
      this.up = true;
      this.status();
    }
    if (frame.t === "moved" && typeof frame.url === "string") {
      // PROTOCOL.md 4, moved: the server closes next, and the reconnect
      // resumes every table. The page follows `url` only to one of the
      // site's own origins (welcome.origins) and, as its CSP allows, on
      // its own host (a site behind one proxy); elsewhere the proxy finds
      // the table. Anything else: reconnect where we were.
      const origins = new Set(((this.welcome && this.welcome.origins) || []).map(originOf).filter(Boolean));
      const to = originOf(frame.url);
      if (to && origins.has(to) && new URL(frame.url).host === new URL(this.url).host) this.url = frame.url;
    }
    if ((frame.t === "ok" || frame.t === "error") && this.waiting.has(frame.re)) {
      const w = this.waiting.get(frame.re);
      this.waiting.delete(frame.re);
      if (frame.t === "ok") w.resolve(frame); else w.reject(frame);
    }
    for (const fn of this.listeners) fn(frame);
  }

  raw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(encode(msg));
      return true;
    }
    return false;
  }

  // Send and wait for the reply; rejects with the error frame. An `act`
  // not yet answered is re-sent after a reconnect under the same id (the
  // server applies it at most once).
  request(msg, { resend = false } = {}) {
    const full = { ...msg, id: msg.id ?? this.id() };
    return new Promise((resolve, reject) => {
      this.waiting.set(full.id, { resolve, reject, msg: full, resend });
      if (!this.raw(full) && !resend) {
        this.waiting.delete(full.id);
        reject({ t: "error", code: "client/offline", message: "not connected" });
      }
    });
  }

  subscribe(table, sub) { this.subs.set(table, sub); }
  unsubscribe(table) { this.subs.delete(table); }
  seen(table, seq) {
    const sub = this.subs.get(table);
    if (sub && seq > (sub.after ?? 0)) sub.after = seq;
  }
}

// A websocket URL's origin: scheme://host[:port] (no default port); null
// for anything else. The same host on another port is another origin.
export function originOf(url) {
  try {
    const u = new URL(String(url).trim());
    if (u.protocol !== "ws:" && u.protocol !== "wss:") return null;
    return `${u.protocol}//${u.host}`.toLowerCase();
  } catch (e) {
    return null;
  }
}

export function serverUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/`;
}
