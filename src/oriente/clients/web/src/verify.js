// The check of a finished table's cards, in this browser (docs/table.md T7,
// PROTOCOL.md "The record"): the salt the record reveals must give the
// commitment this page saw before its seat brought its nonce (kept with the
// seat's token; without one, only the record's own copy can be compared,
// and the panel says so), each nonce the server supplied must be the one
// that salt fixes for its seat, the seed must come from the salt and the
// seats' nonces, and this browser's own nonce must be among them. When no
// seat brought a nonce of its own the deal was the server's to choose: the
// panel says that plainly. The full replay of every draw, the result and
// the table events is `oriente verify`.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { app, seats } from "./state.js";

const html = htm.bind(h);
const enc = new TextEncoder();

// Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True).
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${canonical(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  const text = JSON.stringify(value);
  return typeof value === "string"
    ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : text;
}

async function sha256(parts) {
  const chunks = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const ZERO = new Uint8Array([0]);

export async function checkRecord(record, join) {
  const c = record.commitment;
  if (!c || c.scheme !== "reveal.v1") return { verifiable: false };
  const body = canonical({ config: { options: c.options, seats: c.seats }, game: record.game });
  const commitment = hex(await sha256(["oriente.reveal.v1", ZERO, c.salt, ZERO, body]));
  const opened = (record.table_events || []).find((e) => e.type === "TableOpened");
  const seen = join && typeof join.commitment === "string" ? join.commitment : null;
  const parts = ["oriente.seed.v1", ZERO, c.salt];
  for (const n of c.nonces) parts.push(ZERO, n);
  const digest = await sha256(parts);
  let seed = 0n;
  for (const b of digest.slice(0, 8)) seed = (seed << 8n) | BigInt(b);
  seed >>= 1n;
  const result = {
    verifiable: true,
    live: seen !== null, // compared with what this page saw, not only with the record's own copy
    commitment: commitment === c.sha256 && (!opened || opened.settings.commitment === c.sha256)
      && (seen === null || seen === c.sha256),
    // msgpack gives a 63-bit seed as a rounded number: compare it rounded the same way.
    seed: Number(seed) === Number(c.seed) && Number(c.seed) === Number(record.config.seed),
    supplied: null, // null: a record from before it said which nonces the server supplied
    suppliedSeats: [],
    serversChoice: false,
    mine: null,
  };
  if (Array.isArray(c.supplied)) {
    let ok = true;
    for (const s of c.supplied) {
      const fixed = hex(await sha256(["oriente.server-nonce.v1", ZERO, c.salt, ZERO, String(s)]));
      if (c.nonces[s] !== fixed) ok = false;
    }
    result.supplied = ok;
    result.suppliedSeats = c.supplied;
    result.serversChoice = c.supplied.length === c.nonces.length;
  }
  if (join && join.nonce && Number.isInteger(join.seat)) {
    const mine = hex(await sha256(["oriente.nonce.v1", ZERO, record.table, ZERO, join.nonce]));
    result.mine = c.nonces[join.seat] === mine;
  }
  return result;
}

export function CardsCheck({ ts }) {
  const t = app.t;
  const [state, setState] = useState(null);
  useEffect(() => {
    let live = true;
    app.net.request({ t: "record", table: ts.id })
      .then((ok) => checkRecord(ok.record, seats.get(ts.id)))
      .then((r) => { if (live) setState(r); })
      .catch(() => { if (live) setState({ error: true }); });
    return () => { live = false; };
  }, [ts.id]);
  if (!state) return html`<p class="muted small">${t("check.running")}</p>`;
  if (state.error || !state.verifiable) return html`<p class="check small muted" data-check="none">${t("check.none")}</p>`;
  const line = (ok, key, vars) => html`<li class=${ok ? "ok" : "bad"}>${ok ? "✓" : "✗"} ${t(key, vars)}</li>`;
  const ok = state.commitment && state.seed && state.supplied !== false && state.mine !== false;
  return html`<section class="check" data-check=${ok ? "ok" : "bad"} aria-label=${t("check.title")}>
    <h3>${t("check.title")}</h3>
    <ul>
      ${line(state.commitment, state.live ? "check.commitment_live" : "check.commitment")}
      ${state.supplied !== null && state.suppliedSeats.length > 0
        && line(state.supplied, "check.supplied", { seats: state.suppliedSeats.map((s) => s + 1).join(", ") })}
      ${line(state.seed, "check.seed")}
      ${state.mine !== null && line(state.mine, "check.mine")}
    </ul>
    ${state.serversChoice && html`<p class="check-warning" data-servers-choice role="note">${t("check.servers_choice")}</p>`}
    ${state.supplied === null && html`<p class="small muted">${t("check.supplied_unknown")}</p>`}
    ${!state.live && html`<p class="small muted" data-not-live>${t("check.not_live")}</p>`}
    <p class="small muted">${t("check.replay", { table: ts.id })}</p>
  </section>`;
}
