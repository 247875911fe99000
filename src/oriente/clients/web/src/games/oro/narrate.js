// Oro's projected events in plain words: the same logic as games/oro/narrate.py,
// over the same words (the "oro.*" keys of games/oro/words/LANG.json, merged in by i18n.js).
// tests/web/test_narrate_js.py checks that both tell Oro's events in the same words.
import { Narrator, TABLE_EVENTS } from "../../narrate.js";

const cap = (s) => s.slice(0, 1).toUpperCase() + s.slice(1);
const byNumber = (a, b) => a - b;

// board: the view's `board` ({islands: [{name}], connections: [[a, b]]}) or the reference's.
export class OroNarrator extends Narrator {
  constructor(catalogue, english, board, label = null) {
    super(catalogue, english, label);
    this.islands = board.islands.map((i) => i.name);
    this.ends = board.connections;
  }

  island(i) { return Number.isInteger(i) && i >= 0 && i < this.islands.length ? this.islands[i] : String(i); }
  card(c) { return c === null || c === undefined ? this.t("oro.card_hidden") : this.island(c); }
  cards(cards) { return this.list((cards || []).map((c) => this.card(c))); }
  conn(c) {
    if (!Number.isInteger(c) || c < 0 || c >= this.ends.length) return String(c);
    const [a, b] = this.ends[c];
    return `${this.island(a)}–${this.island(b)}`;
  }

  narrate(e, viewer = null) {
    if (TABLE_EVENTS.has(e.type)) return this.tableEvent(e);
    const fn = this[`o_${e.type}`];
    if (typeof fn !== "function") return this.fallback(e);
    let text;
    try {
      text = fn.call(this, e, viewer);
    } catch (err) {
      return this.fallback(e);
    }
    return text.split("\n").map(cap).join("\n");
  }

  o_GameStarted(e) {
    const variant = e.gods ? this.t("oro.GameStarted.gods") : "";
    const lines = [this.t("oro.GameStarted", { n: e.seats, board: e.board, variant, first: this.seat(e.first_seat), deck: e.deck_size })];
    const hands = e.hands || [];
    const shown = hands.map((h, s) => [s, h]).filter(([, h]) => h.length && h.every((c) => c !== null));
    if (shown.length && shown.length === hands.length) {
      lines.push(this.t("oro.GameStarted.hands", { list: shown.map(([s, h]) => this.t("oro.pair", { seat: this.seat(s), cards: this.cards([...h].sort(byNumber)) })).join("; ") }));
    } else if (shown.length) {
      lines.push(this.t("oro.GameStarted.hand", { cards: this.cards([...shown[0][1]].sort(byNumber)) }));
    }
    return lines.join("\n");
  }
  o_GaveUp(e) {
    if (e.island === null || e.island === undefined) return this.t("oro.GaveUp.hidden", { seat: this.seat(e.seat) });
    return this.t("oro.GaveUp", { seat: this.seat(e.seat), card: this.card(e.island) });
  }
  o_DisplayOpened(e) { return this.t("oro.DisplayOpened", { cards: this.cards(e.display), deck: e.deck_size }); }
  o_TurnBegan(e) { return this.t(e.half === 3 ? "oro.TurnBegan.final" : "oro.TurnBegan", { seat: this.seat(e.seat) }); }
  o_Built(e) {
    const args = { seat: this.seat(e.seat), conn: this.conn(e.connection) };
    if (e.kanaloa) return this.t("oro.Built.kanaloa", args);
    return this.t("oro.Built", { card: this.card(e.island), ...args });
  }
  o_Replaced(e) {
    const played = [...(e.islands || []).map((c) => this.card(c)), ...Array(Number(e.kanaloa || 0)).fill("Kanaloa")];
    return this.t("oro.Replaced", { seat: this.seat(e.seat), owner: this.seat(e.owner), conn: this.conn(e.connection), cards: this.list(played) });
  }
  o_ControlGained(e) {
    let text = this.t("oro.ControlGained", { seat: this.seat(e.seat), island: this.island(e.island) });
    const removed = e.removed || [];
    if (removed.length) {
      const owners = [...new Set(removed.map(([, o]) => o))].sort(byNumber);
      text += this.plural("oro.ControlGained.removed", removed.length, { owners: this.seats(owners) });
    }
    text += ".";
    if (e.stone) {
      const kane = e.kane ? this.plural("oro.ControlGained.kane", Number(e.kane)) : "";
      const god = String(e.stone);
      text += this.t("oro.ControlGained.stone", { god: god.slice(0, 1).toUpperCase() + god.slice(1).toLowerCase(), kane });
    }
    return text;
  }
  o_ControlLost(e) { return this.t("oro.ControlLost", { seat: this.seat(e.seat), island: this.island(e.island) }); }
  o_BridgeRemoved(e) {
    return this.t("oro.BridgeRemoved", { seat: this.seat(e.seat), island: this.island(e.island), owner: this.seat(e.owner), conn: this.conn(e.connection) });
  }
  o_Discarded(e) {
    if (e.island === null || e.island === undefined) return this.t("oro.Discarded.hidden", { seat: this.seat(e.seat) });
    return this.t("oro.Discarded", { seat: this.seat(e.seat), card: this.card(e.island) });
  }
  o_Drew(e) {
    const seat = this.seat(e.seat);
    const lono = e.lono ? this.t("oro.Drew.lono") : "";
    if (e.from_display) {
      let text = this.t("oro.Drew.display", { seat, card: this.card(e.island), lono });
      if (e.refill !== null && e.refill !== undefined) text += this.t("oro.Drew.refill", { card: this.card(e.refill) });
      return text + ".";
    }
    if (e.island === null || e.island === undefined) return this.t("oro.Drew.deck", { seat, lono, deck: e.deck_size });
    return this.t("oro.Drew.deck_seen", { seat, card: this.card(e.island), lono, deck: e.deck_size });
  }
  // A final turn is told once it is over, as what it was (O5.6); any other turn's end the draw says.
  o_TurnEnded(e) {
    if (!e.final) return "";
    return this.t(e.played ? "oro.TurnEnded.final" : "oro.TurnEnded.final_idle", { seat: this.seat(e.seat) });
  }
  o_Passed(e) { return this.t("oro.Passed", { seat: this.seat(e.seat) }); }
  o_Scored(e) {
    const items = (e.islands || []).map(([i, s, p]) => this.t("oro.Scored.item", { island: this.island(i), seat: this.seat(s), points: p }));
    const head = this.t(e.final ? "oro.Scored.final" : "oro.Scored.first", { items: items.length ? items.join(this.t("sep")) : this.t("oro.Scored.none") });
    const totals = (e.scores || []).map((p, s) => this.t("oro.pair", { seat: this.seat(s), cards: p })).join(this.t("sep"));
    return `${head}\n${this.t("oro.Scored.totals", { list: totals })}`;
  }
  o_Reshuffled(e) { return this.t("oro.Reshuffled", { deck: e.deck_size, cards: this.cards(e.display) }); }
  o_FinalRoundBegan() { return this.t("oro.FinalRoundBegan"); }
  o_KuLooked(e) {
    const args = { seat: this.seat(e.seat), target: this.seat(e.target) };
    const hand = e.hand || [];
    if (hand.length && hand.every((c) => c !== null)) return this.t("oro.KuLooked.seen", { cards: this.cards([...hand].sort(byNumber)), ...args });
    return this.t("oro.KuLooked", args);
  }
  o_KuTook(e) { return this.t("oro.KuTook", { seat: this.seat(e.seat), target: this.seat(e.target), card: this.card(e.island) }); }
  o_PeleTook(e) {
    const taken = e.taken || [];
    let text = this.t("oro.PeleTook", { seat: this.seat(e.seat), from_: this.seats(taken.map(([o]) => o)) });
    const seen = taken.filter(([, c]) => c !== null);
    if (seen.length) text += this.t("oro.PeleTook.seen", { list: seen.map(([o, c]) => this.t("oro.pair", { seat: this.seat(o), cards: this.card(c) })).join(this.t("sep")) });
    return text + ".";
  }
  o_PeleGave(e) { return this.t("oro.PeleGave", { seat: this.seat(e.seat), to: this.seat(e.to), card: this.card(e.island) }); }
  o_LonoUsed(e) { return this.t("oro.LonoUsed", { seat: this.seat(e.seat) }); }
  o_GameEnded(e) {
    const scores = e.scores || [];
    const w = e.winner;
    const points = Number.isInteger(w) && w < scores.length ? scores[w] : "?";
    return this.t(e.reason === "eleven" ? "oro.GameEnded.eleven" : "oro.GameEnded", { winner: cap(this.seat(w)), points });
  }
}
