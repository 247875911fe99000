// The log a person reads: one compact line per event with an icon, grouped
// as the game groups them (Oriente: by season, and within it by fight; a
// game's folder says how with `logGroup` and `logIcon`), pinned to the
// newest line unless the person scrolled up (then a button brings them
// back), and each line linked to its step in the replay once the game is
// over (in a replay, a line goes to its step). Chat has a pane of its own
// under it (`ChatPane`), so talk never hides what happened.
import { h } from "preact";
import htm from "htm";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { gameUi } from "./games.js";
import { chat, lineOf } from "./live.js";
import { app } from "./state.js";

const html = htm.bind(h);

// The table's own events, the same in every game.
// (Symbols every common font draws: no emoji font is needed.)
const TABLE_ICONS = {
  TableOpened: "◇", SeatTaken: "+", SeatLeft: "−", TableStarted: "▶", SeatAway: "◐", SeatBack: "●",
  SeatPresence: "●", ProxyOn: "⚙", ProxyOff: "⚙", TableFinished: "⚑", TableFailed: "⚠", RematchOffered: "↻",
  TimedOut: "⌛", TableAbandoned: "⚠",
};
// Presence comes and goes all game long: the log keeps it out (the seats show it).
const UNLOGGED = new Set(["Chat", "TableFinished", "SeatPresence"]);

// The events as a list of groups: {key, title, kind, lines: [event | group]}.
// `group(e)` (the game's) says whether an event opens a group
// ({kind: "season" | "fight" | ..., title, closes?}) or closes the open
// fight ("end"); everything else joins the group open at the time.
export function grouped(events, group) {
  const top = { key: "top", kind: "top", title: null, lines: [] };
  let outer = top, inner = null;
  for (const e of events) {
    const g = group ? group(e) : null;
    if (g && g !== "end" && g.level === 1) {
      outer = { key: `g${e.seq}`, kind: g.kind, title: g.title, lines: [] };
      top.lines.push(outer);
      inner = null;
    } else if (g && g !== "end" && g.level === 2) {
      inner = { key: `g${e.seq}`, kind: g.kind, title: g.title, lines: [] };
      outer.lines.push(inner);
    }
    (inner || outer).lines.push(e);
    if (g === "end") inner = null;
  }
  return top;
}

function Line({ ts, e, icon, link }) {
  const text = lineOf(ts, e);
  const cls = e.type === "DealProposed" || e.type === "DealExecuted" ? "deal" : "";
  const glyph = TABLE_ICONS[e.type] || icon || "•";
  const body = link ? link(e, text) : text;
  return html`<li class=${cls} data-seq=${e.seq} data-type=${e.type}><span class="icon" aria-hidden="true">${glyph}</span><span class="text">${body}</span></li>`;
}

function Group({ ts, g, icon, link }) {
  const items = g.lines.map((x) => (x.lines
    ? html`<${Group} key=${x.key} ts=${ts} g=${x} icon=${icon} link=${link} />`
    : html`<${Line} key=${x.seq} ts=${ts} e=${x} icon=${icon(x)} link=${link} />`));
  if (g.kind === "top") return html`<ol>${items}</ol>`;
  return html`<li class=${`group g-${g.kind}`}><div class="group-title">${g.title}</div><ol>${items}</ol></li>`;
}

// `events`: the events to tell (a replay's up to its step; else the
// table's); `link(e, text)`: what a line links to, or none.
export function Feed({ ts, events, link = null }) {
  const ref = useRef(null);
  const [pinned, setPinned] = useState(true);
  const pin = useRef(true);
  // An event its narrator tells in no words (Samurai's end of a turn) makes no empty line.
  const list = (events || ts.events).filter((e) => !UNLOGGED.has(e.type) && lineOf(ts, e) !== "");
  const ui = gameUi(ts.game);
  const icon = (e) => (ui.logIcon ? ui.logIcon(e) : null);
  const group = ui.logGroup ? (e) => ui.logGroup(ts, e) : null;
  const linkOf = link || (ts.info && ts.info.status === "finished" ? replayLink(ts) : null);
  // Pinned to the newest line: after every drawing, and when the page is seen again.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && pin.current) el.scrollTop = el.scrollHeight;
  });
  useEffect(() => {
    const again = () => { const el = ref.current; if (el && pin.current && !document.hidden) el.scrollTop = el.scrollHeight; };
    document.addEventListener("visibilitychange", again);
    return () => document.removeEventListener("visibilitychange", again);
  }, []);
  // A scroll event may come after the log left the page (the table moved
  // on, or closed): then there is nothing to pin.
  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const at = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    pin.current = at;
    if (at !== pinned) setPinned(at);
  };
  const newest = () => { const el = ref.current; pin.current = true; setPinned(true); if (el) el.scrollTop = el.scrollHeight; };
  const last = list.length ? lineOf(ts, list[list.length - 1]) : "";
  return html`<div class="log-wrap">
    <div class="feed log" ref=${ref} onScroll=${onScroll} tabindex="0" aria-label=${app.t("feed.aria")}>
      <${Group} ts=${ts} g=${grouped(list, group)} icon=${icon} link=${linkOf} />
      <div class="sr-only" aria-live="polite">${last}</div>
    </div>
    ${!pinned && html`<button type="button" class="newest" onClick=${newest}>↓ ${app.t("log.newest")}</button>`}
  </div>`;
}

// A finished table's lines, each a link to its step in the replay, seen
// from this page's seat (or as a spectator).
function replayLink(ts) {
  const as = ts.seated ? ts.you : "spectator";
  return (e, text) => html`<a href=${`#/r/${ts.id}?as=${as}&seq=${e.seq}`} title=${app.t("log.to_replay")}>${text}</a>`;
}

// The chat: its own pane, the newest message in sight, and (for a seat) the box to write in.
export function ChatPane({ ts }) {
  const ref = useRef(null);
  const [text, setText] = useState("");
  const lines = ts.events.filter((e) => e.type === "Chat");
  useLayoutEffect(() => { const el = ref.current; if (el) el.scrollTop = el.scrollHeight; }, [lines.length]);
  const send = async (ev) => {
    ev.preventDefault();
    const value = text.trim();
    if (value && (await chat(ts, value))) setText("");
  };
  return html`<section class="chat-pane" aria-label=${app.t("chat.aria")}>
    <ol ref=${ref} class="chat-lines">
      ${lines.length ? lines.map((e) => html`<li key=${e.seq} class="chat">${lineOf(ts, e)}</li>`)
        : html`<li class="muted small">${app.t("chat.none")}</li>`}
    </ol>
    ${ts.seated ? html`<form class="chatbox" onSubmit=${send}>
      <label class="sr-only" for="chat-input">${app.t("chat.label")}</label>
      <input id="chat-input" maxlength="500" value=${text} onInput=${(e) => setText(e.target.value)} placeholder=${app.t("chat.placeholder")} />
      <button type="submit">${app.t("chat.send")}</button>
    </form>` : html`<p class="small muted">${app.t("chat.spectator")}</p>`}
  </section>`;
}
