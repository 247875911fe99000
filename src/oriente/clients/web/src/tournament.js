// A tournament on the page (PROTOCOL.md 21, docs/tournaments.md): its
// standings, live, and — for an entrant whose entry token this browser
// keeps — the next table with a link that sits down at it. Entering takes
// a name (the entry token comes back and is kept here) or a token pasted
// from elsewhere. Exports are the server's plain downloads.
import { h } from "preact";
import htm from "htm";
import { useEffect, useState } from "preact/hooks";
import { OrganiserPanel, organised } from "./organise.js";
import { app, dispatch, errorText, newNonce, say, seats } from "./state.js";

const html = htm.bind(h);
const KEY = "oriente.entries"; // tournament -> entry token

function entries() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; }
}

function keepEntry(tournament, token) {
  const all = entries();
  if (token) all[tournament] = token; else delete all[tournament];
  localStorage.setItem(KEY, JSON.stringify(all));
}

// The tournament frames this page follows: the newest state of each goes to the store.
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  app.net.onFrame((frame) => {
    if (frame.t !== "tournament") return;
    const you = frame.state.you;
    if (you && you.table && you.token) {
      // The seat is this browser's: the table page resumes it with its token,
      // and brings a nonce of our own to it once it has seen its commitment.
      const mine = seats.get(you.table);
      // `offered` is the commitment the event showed with the seat: the first
      // resume brings the nonce at once, as the table may start as soon as
      // its seats are present (PROTOCOL.md 21).
      if (!mine) seats.put(you.table, { seat: you.seat, token: you.token, name: entrantName(frame.state, you.entrant),
                                          reserved: true, nonce: newNonce(), offered: you.commitment ?? undefined });
    }
    dispatch({ type: "tournament", id: frame.tournament, state: frame.state });
  });
}

function entrantName(state, id) {
  const e = (state.entrants || []).find((x) => x.id === id);
  return e ? e.name : id;
}

async function watch(id) {
  const token = entries()[id] || null;
  try {
    await app.net.request({ t: "tournament_watch", tournament: id, token, full: true });
  } catch (err) {
    if (token && err.code === "auth/bad_token") { keepEntry(id, null); return watch(id); }
    dispatch({ type: "tournament", id, state: { missing: err } });
  }
  return null;
}

export function TournamentPage({ id }) {
  const t = app.t;
  const [name, setName] = useState(app.name || "");
  const [pasted, setPasted] = useState("");
  useEffect(() => {
    if (!app.up) return;
    listen();
    watch(id);
  }, [id, app.up]);
  const state = app.tournaments.get(id);
  if (!state) return html`<main class="page tournament"><p class="muted">…</p></main>`;
  if (state.missing) return html`<main class="page tournament"><p role="alert">${errorText(state.missing)}</p></main>`;
  const config = state.config;
  const you = state.you;
  const enter = async (e) => {
    e.preventDefault();
    try {
      const ok = await app.net.request({ t: "tournament_register", tournament: id, name: name.trim(), kind: "player" });
      keepEntry(id, ok.token);
      await watch(id);
    } catch (err) { say(errorText(err)); }
  };
  const usePasted = async (e) => {
    e.preventDefault();
    keepEntry(id, pasted.trim());
    setPasted("");
    await watch(id);
  };
  const board = config.format === "duplicate";
  return html`<main class="page tournament" data-ready="1">
    <h1>${config.name}${config.seeded && html` <span class="tag seeded" id="tournament-seeded" title=${t("tournament.seeded_help")}>${t("table.seeded")}</span>`}</h1>
    <p class="muted">${t("tournament.summary", { game: t(`game.${config.game}`), format: t(`tournament.format_${config.format}`),
      played: state.rounds_played, rounds: config.rounds })}${state.finished ? ` · ${t("tournament.finished")}` : ""}</p>
    ${you ? html`<section class="you" id="tournament-you" aria-live="polite">
        <h2>${t("tournament.you", { name: entrantName(state, you.entrant) })}</h2>
        ${you.table ? html`<p>${t("tournament.next_table", { round: you.round, seat: t("seat.n", { n: you.seat }) })}
            <a class="button primary" id="tournament-table" href=${`#/t/${you.table}`}>${t("tournament.sit_down")}</a></p>`
          : you.bye !== undefined ? html`<p>${t("tournament.bye", { round: you.round, points: you.bye })}</p>`
            : html`<p class="muted">${t(state.finished ? "tournament.over" : "tournament.waiting")}</p>`}
      </section>`
      : !state.finished && html`<section class="enter">
        <form onSubmit=${enter}><label class="field">${t("lobby.your_name")}<input id="tournament-name" maxlength="32" value=${name}
          onInput=${(e) => setName(e.target.value)} /></label>
          <button type="submit" class="primary" id="tournament-enter" disabled=${!app.up || !name.trim()}>${t("tournament.enter")}</button></form>
        <form onSubmit=${usePasted}><label class="field">${t("tournament.token")}<input id="tournament-token" value=${pasted}
          onInput=${(e) => setPasted(e.target.value)} /></label>
          <button type="submit" disabled=${!pasted.trim()}>${t("tournament.use_token")}</button></form>
      </section>`}
    ${organised.get(id) && html`<${OrganiserPanel} id=${id} state=${state} />`}
    <h2>${t("tournament.standings")}</h2>
    <table class="board" id="standings"><thead><tr><th>#</th><th>${t("result.player")}</th><th title=${t("tournament.points_help")}>${t("tournament.points")}</th>
      <th>${t("account.games")}</th><th>${t("tournament.wins")}</th><th title=${t("tournament.sos_help")}>${t("tournament.sos")}</th>
      ${board && html`<th>${t("tournament.board_score")}</th>`}</tr></thead>
      <tbody>${state.standings.map((r) => html`<tr key=${r.id} class=${you && r.id === you.entrant ? "mine" : ""}>
        <td>${r.rank === null ? "–" : r.rank}</td><td>${r.name}${r.status !== "active" ? html` <span class="muted small">(${t(`tournament.${r.status}`)})</span>` : ""}</td>
        <td>${r.points.toFixed(2)}</td><td>${r.games}</td><td>${r.wins}</td><td>${r.sos.toFixed(2)}</td>
        ${board && html`<td>${(r.board_score || 0).toFixed(2)}</td>`}</tr>`)}</tbody></table>
    <p class="small muted" id="standings-note">${t("tournament.standings_note")}</p>
    <p class="small downloads">${`${t("tournament.download")}: `}<a href=${`/tournament/${id}/standings.csv`} download>${t("tournament.download_standings")}</a>${" · "}<a
      href=${`/tournament/${id}/export.json`} download>${t("tournament.download_all")}</a>${" · "}<a
      href=${`/tournament/${id}/records.json`} download>${t("tournament.download_records")}</a></p>
  </main>`;
}

// The lobby's list of this server's tournaments.
export function TournamentList() {
  const t = app.t;
  const [rows, setRows] = useState(null);
  useEffect(() => {
    if (!app.up) return;
    app.net.request({ t: "list_tournaments" }).then((ok) => setRows(ok.tournaments)).catch(() => setRows([]));
  }, [app.up]);
  if (!rows || rows.length === 0) return null;
  return html`<section class="tournaments"><h2>${t("tournament.title")}</h2><ul>
    ${rows.map((r) => html`<li key=${r.tournament}><a href=${`#/tournament/${r.tournament}`}>${r.name}</a>
      <span class="muted small"> ${t("tournament.summary", { game: t(`game.${r.game}`), format: t(`tournament.format_${r.format}`),
        played: r.played, rounds: r.rounds })}${r.finished ? ` · ${t("tournament.finished")}` : ""}</span></li>`)}</ul></section>`;
}
