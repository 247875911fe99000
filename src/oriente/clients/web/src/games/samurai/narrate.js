// Samurai's projected events in plain words: the same logic as games/samurai/narrate.py,
// over the same words (the "sam.*" keys of games/samurai/words/LANG.json, merged in by i18n.js).
// tests/web/test_narrate_js.py checks that both tell Samurai's events in the same words.
import { Narrator, TABLE_EVENTS } from "../../narrate.js";
import { squares } from "./squares.js";

const cap = (s) => s.slice(0, 1).toUpperCase() + s.slice(1);
const known = (xs) => xs.length > 0 && xs.every((x) => x !== null && x !== undefined);
const KINDS = ["helmet", "buddha", "rice"]; // the order of GameEnded's counts

// board and tiles: the view's `board` and `tile_set` (or the reference's default files).
export class SamuraiNarrator extends Narrator {
  constructor(catalogue, english, board, tiles, label = null) {
    super(catalogue, english, label);
    this.names = new Map(board.hexes.filter((h) => h.name).map((h) => [h.id, h.name]));
    this.villages = new Set(board.hexes.filter((h) => h.terrain === "village").map((h) => h.id));
    this.squares = squares(board.hexes);
    this.tiles = tiles.tiles;
  }

  // A hex as every client names it: "Kyoto (K12)", "village K7", "K12" (squares.js).
  hex(h) {
    const square = this.squares.get(h);
    if (square === undefined) return this.t("sam.hex", { id: h });
    if (this.names.has(h)) return this.t("sam.hex_named", { name: this.names.get(h), square });
    return this.t(this.villages.has(h) ? "sam.hex_village" : "sam.hex_square", { square });
  }
  figure(f) { return this.t(`sam.figure.${f}`); }
  kind(kind, strength) {
    const name = this.t(`sam.kind.${kind}`);
    if (strength === null || strength === undefined || kind === "figure_swap" || kind === "tile_swap") return name;
    return this.t("sam.tile", { kind: name, strength });
  }
  tile(i) {
    if (i === null || i === undefined) return this.t("sam.tile_hidden");
    const t = this.tiles[i];
    return this.kind(t.kind, t.strength);
  }
  tileList(tiles) { return this.list(tiles.map((t) => this.tile(t))); }
  byTable(e, text) { return text + (e.by_table ? this.t("sam.by_table") : "") + "."; }

  narrate(e, viewer = null) {
    if (TABLE_EVENTS.has(e.type)) return this.tableEvent(e);
    const fn = this[`s_${e.type}`];
    if (typeof fn !== "function") return this.fallback(e);
    let text;
    try {
      text = fn.call(this, e, viewer);
    } catch (err) {
      return this.fallback(e);
    }
    return text.split("\n").map(cap).join("\n");
  }

  s_GameStarted(e) {
    return this.t("sam.GameStarted", { n: e.seats, board: e.board, figures: e.figures_per_kind, first: this.seat(e.first) });
  }
  s_SelectionBegan() { return this.t("sam.SelectionBegan"); }
  s_TilesChosen(e) {
    const tiles = e.tiles || [];
    if (known(tiles)) return this.byTable(e, this.t("sam.TilesChosen", { seat: this.seat(e.seat), tiles: this.tileList(tiles) }));
    return this.byTable(e, this.t("sam.TilesChosen.hidden", { seat: this.seat(e.seat) }));
  }
  s_SelectionDone(e) { return this.t("sam.SelectionDone", { n: (e.supply_sizes || [0])[0] }); }
  s_CapitalFilled(e) {
    return this.t("sam.CapitalFilled", { hex: this.hex(e.hex), figures: this.list(e.figures.map((f) => this.figure(f))) });
  }
  s_FigurePlaced(e) {
    return this.byTable(e, this.t("sam.FigurePlaced", { seat: this.seat(e.seat), figure: this.figure(e.figure), hex: this.hex(e.hex) }));
  }
  s_TurnBegan(e) { return this.t("sam.TurnBegan", { turn: e.turn, seat: this.seat(e.seat) }); }
  s_TilePlaced(e) {
    return this.byTable(e, this.t("sam.TilePlaced", { seat: this.seat(e.seat), tile: this.kind(e.kind, e.strength), hex: this.hex(e.hex) }));
  }
  s_FiguresSwapped(e) {
    return this.byTable(e, this.t("sam.FiguresSwapped", {
      seat: this.seat(e.seat), a: this.figure(e.figure_a), hex_a: this.hex(e.hex_a), b: this.figure(e.figure_b), hex_b: this.hex(e.hex_b),
    }));
  }
  s_TileSwapped(e) {
    return this.byTable(e, this.t("sam.TileSwapped", { seat: this.seat(e.seat), hex: this.hex(e.hex), moved: this.tile(e.moved), to: this.hex(e.to) }));
  }
  s_TurnEnded() { return ""; }
  s_TurnPassed(e) { return this.byTable(e, this.t("sam.TurnPassed", { seat: this.seat(e.seat) })); }
  s_FigureCaptured(e) {
    const args = { figure: this.figure(e.figure), hex: this.hex(e.hex) };
    if (e.seat === null || e.seat === undefined) return this.t("sam.FigureCaptured.aside", args);
    return this.t("sam.FigureCaptured", { seat: this.seat(e.seat), ...args });
  }
  s_TilesDrawn(e) {
    const tiles = e.tiles || [];
    const seat = this.seat(e.seat);
    const left = e.supply_left;
    if (known(tiles)) return this.t("sam.TilesDrawn", { seat, tiles: this.tileList(tiles), left });
    return this.plural("sam.TilesDrawn.hidden", tiles.length, { seat, left });
  }
  // Why the game ended: the kind that ran out (S5.1), the figures set aside
  // (S5.2), or the guard for maps whose land outlasts the tiles (S5.4).
  ending(e) {
    const { reason, captured, set_aside: aside } = e;
    if (reason === "no_moves") return this.t("sam.GameEnded.guard");
    if (!captured || !aside) return this.t(`sam.GameEnded.${reason}`);
    const gone = [0, 1, 2].map((k) => captured.reduce((sum, c) => sum + c[k], 0) + aside[k]);
    if (reason === "last_figure") {
      const out = KINDS.filter((_, k) => gone[k] === Math.max(...gone));
      return this.plural("sam.GameEnded.ran_out", out.length, { figures: this.list(out.map((f) => this.t(`sam.last.${f}`))) });
    }
    if (reason === "set_aside") {
      return this.t("sam.GameEnded.aside", { list: this.list([0, 1, 2].filter((k) => aside[k]).map((k) => this.plural(`sam.count.${KINDS[k]}`, aside[k]))) });
    }
    return this.t(`sam.GameEnded.${reason}`);
  }
  s_GameEnded(e) {
    const lines = [this.ending(e)];
    const majorities = e.majorities;
    const captured = e.captured;
    if (majorities && captured && majorities.some((s) => s !== null && s !== undefined)) {
      const items = [];
      majorities.forEach((s, k) => {
        if (s !== null && s !== undefined) {
          items.push(this.t("sam.GameEnded.majority", { seat: this.seat(s), figures: this.t(`sam.figures.${KINDS[k]}`), n: captured[s][k] }));
        }
      });
      lines.push(this.t("sam.GameEnded.majorities", { list: this.list(items) }));
    }
    const winners = e.winners || [];
    lines.push(winners.length ? this.t("sam.GameEnded.winners", { winners: cap(this.list(winners.map((s) => this.seat(s)))) })
      : this.t("sam.GameEnded.nobody"));
    return lines.join("\n");
  }
}
