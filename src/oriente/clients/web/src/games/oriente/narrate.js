// Oriente's events in plain words: the same logic as games/oriente/narrate.py,
// over the same words (the "narrate" part of games/oriente/words/LANG.json, merged in by i18n.js).
// tests/web/test_narrate_js.py checks that both tell every event of many
// games in the same words, in every language. Keep the two in step.
import { cap, Narrator } from "../../narrate.js";

const isYou = (seat, viewer) => typeof viewer === "number" && seat === viewer;

// cards: {name(card, lang), kind(card)} from the server's card reference.
export class OrienteNarrator extends Narrator {
  constructor(catalogue, english, cards, label = null) {
    super(catalogue, english, label);
    this.cardsRef = cards;
  }

  name(card) { return card === null || card === undefined ? this.t("hidden_card") : this.cardsRef.name(card, this.lang); }
  a(card) {
    if (card === null || card === undefined) return this.t("hidden_card");
    const key = `card_a.${this.cardsRef.kind(card)}`;
    return this.t(this.has(key) ? key : "card_a", { card: this.name(card) });
  }
  cards(cards) { return this.list((cards || []).map((c) => this.name(c))); }
  some(cards) { return this.list((cards || []).map((c) => this.a(c))); }
  secret(card, seat, viewer) {
    if (card === null || card === undefined) return this.t("secret_hidden");
    if (isYou(seat, viewer)) return this.t("secret_you", { card: this.name(card) });
    return this.t("secret_shown", { card: this.name(card) });
  }
  action(action, bare = false) {
    if (!action) return this.t("action.none");
    const key = `${bare ? "bare" : "action"}.${action.kind}`;
    if (!this.has(key)) return String(action.kind) + (action.target != null ? ` ${this.seat(action.target)}` : "");
    return this.t(key, { target: this.seat(action.target) });
  }
  pairs(pairs) {
    return pairs.map(([s, c]) => this.t("GameStarted.pair", { seat: this.seat(s), card: this.name(c) })).join(this.t("sep"));
  }
  reason(r) { return this.has(`reason.${r}`) ? this.t(`reason.${r}`) : String(r); }

  e_GameStarted(e, viewer) {
    const lines = [this.t("GameStarted", { n: e.seats, stone: this.seat(e.stone_holder) })];
    const treasures = e.treasures || [];
    if (treasures.length) lines.push(this.t("GameStarted.treasures", { list: this.pairs(treasures.map((c, s) => [s, c])) }));
    const inh = e.inhabitants || [];
    const shown = inh.map((c, s) => [s, c]).filter(([, c]) => c !== null);
    const args = { bonus: this.secret(e.bonus_card ?? null, null, viewer), deck: e.deck_size };
    if (shown.length && shown.length === inh.length) lines.push(this.t("GameStarted.inhabitants_all", { list: this.pairs(shown), ...args }));
    else if (shown.length) lines.push(this.t("GameStarted.inhabitants_some", { secrets: shown.map(([s, c]) => this.secret(c, s, viewer)).join("; "), ...args }));
    else lines.push(this.t("GameStarted.inhabitants_none", args));
    lines.push(this.t(e.hut_used ? "GameStarted.hut" : "GameStarted.no_hut"));
    return lines.join("\n");
  }
  e_SeasonBegan(e) {
    return this.t("SeasonBegan", { season: e.season, stone: this.seat(e.stone_holder), bonus: this.plural("count.card", e.bonus_size ?? 0) });
  }
  e_Passed(e) { return this.t("Passed", { seat: this.seat(e.seat) }); }
  e_Announced(e) {
    const seat = this.seat(e.seat);
    if (e.claim) return this.t("Announced.claim", { seat, over: this.seat(e.over), card: this.a(e.card), action: this.action(e.action, true) });
    if (e.card !== null && e.card !== undefined) return this.t("Announced.reveal", { seat, action: this.action(e.action), card: this.a(e.card) });
    return this.t("Announced", { seat, action: this.action(e.action) });
  }
  e_PrivilegeRoundOpened(e) {
    return this.t("PrivilegeRoundOpened", { asked: this.seats(e.asked || []), announcer: this.seat(e.announcer), rank: e.rank });
  }
  e_PrivilegePassed(e) { return this.t(e.voided_claim ? "PrivilegePassed.voided" : "PrivilegePassed", { seat: this.seat(e.seat) }); }
  e_Fulfilled(e) {
    const seat = this.seat(e.seat), action = this.action(e.action);
    const aside = e.bonus_set_aside || 0;
    if (aside) return this.plural("Fulfilled.aside", aside, { seat, action, count: this.plural("count.bonus", aside) });
    return this.t("Fulfilled", { seat, action });
  }
  e_BonusAwarded(e) {
    const cards = e.cards || [], seat = this.seat(e.seat);
    if (e.blessing) {
      if (!cards.length) return this.t("BonusAwarded.blessing_none", { seat });
      return this.t("BonusAwarded.blessing", { seat, cards: this.cards(cards) });
    }
    return this.t("BonusAwarded", { seat, cards: this.cards(cards) });
  }
  e_IncomeDrawn(e) { return this.t("IncomeDrawn", { seat: this.seat(e.seat), card: this.a(e.card) }); }
  e_SuccessionDone(e) {
    const args = { seat: this.seat(e.seat), target: this.seat(e.target) };
    if (!e.done) return this.t("SuccessionDone.failed", args);
    return this.t(e.from_pile ? "SuccessionDone.pile" : "SuccessionDone", args);
  }
  e_CreditTaken(e) {
    const cards = e.cards || [], args = { seat: this.seat(e.seat), target: this.seat(e.target) };
    if (!cards.length) return this.t("CreditTaken.none", args);
    return this.t("CreditTaken", { n: cards.length, ...args });
  }
  e_TradeDone(e) {
    const target = this.seat(e.target);
    const give = e.given !== null && e.given !== undefined ? this.t("TradeDone.give", { card: this.name(e.given), target }) : this.t("TradeDone.give_none", { target });
    const draw = e.drawn !== null && e.drawn !== undefined ? this.t("TradeDone.draw", { card: this.name(e.drawn) }) : this.t("TradeDone.draw_none");
    return this.t("TradeDone", { seat: this.seat(e.seat), give, draw });
  }
  e_Incited(e) {
    const where = { hut: "Incited.hut", square: "Incited.square" }[e.moved_to] || "Incited.none";
    return this.t("Incited", { seat: this.seat(e.seat), where: this.t(where), supply: e.supply, hut: e.hut, square: e.square });
  }
  e_Assassinated(e) { return this.t("Assassinated", { seat: this.seat(e.seat), target: this.seat(e.target), card: this.name(e.card) }); }
  e_InhabitantDrawn(e, viewer) { return this.t("InhabitantDrawn", { seat: this.seat(e.seat), secret: this.secret(e.card, e.seat, viewer) }); }
  e_TransformationBegan(e, viewer) {
    const seen = (e.taken || []).filter(([, c]) => c !== null);
    const seat = this.seat(e.seat);
    if (!seen.length) return this.t("TransformationBegan", { seat });
    const who = this.t(isYou(e.seat, viewer) ? "TransformationBegan.you_see" : "TransformationBegan.it_sees");
    return this.t("TransformationBegan.seen", { seat, who, list: this.pairs(seen) });
  }
  e_TransformationDone(e, viewer) {
    const kept = e.kept !== null && e.kept !== undefined ? ` ${this.secret(e.kept, e.seat, viewer)}` : "";
    const drawn = e.drawn !== null && e.drawn !== undefined ? ` (${this.name(e.drawn)})` : "";
    const dealt = (e.dealt || []).filter(([, c]) => c !== null);
    let dealtText = "";
    if (dealt.length && dealt.every(([s]) => !isYou(s, viewer))) dealtText = ": " + this.pairs(dealt);
    else if (dealt.length) dealtText = " " + dealt.map(([s, c]) => this.secret(c, s, viewer)).join(" ");
    return this.t("TransformationDone", { seat: this.seat(e.seat), kept, drawn, dealt: dealtText });
  }
  e_FightBegan(e) {
    const asked = e.asked || [];
    const tail = asked.length ? cap(this.t("FightBegan.asked", { asked: this.seats(asked) })) : this.t("FightBegan.nobody");
    const args = { defender: this.seat(e.defender), attacker: this.seat(e.attacker), tail };
    if (e.defender_card === null || e.defender_card === undefined) return this.t("FightBegan.hidden", args);
    return this.t("FightBegan", { card: this.a(e.defender_card), ...args });
  }
  e_NegotiationDone(e) { return cap(this.t("NegotiationDone", { seat: this.seat(e.seat) })); }
  e_NegotiationClosed() { return this.t("NegotiationClosed"); }
  e_SupportDeclared(e) {
    if (e.side === null || e.side === undefined) return this.t("SupportDeclared.none", { seat: this.seat(e.seat) });
    return this.t("SupportDeclared", { seat: this.seat(e.seat), side: this.t(`side.${e.side}`) });
  }
  e_SupportersRevealed(e) {
    const items = (e.supporters || []).map(([s, c, side]) => this.t("SupportersRevealed.item", { seat: this.seat(s), card: this.name(c), side: this.t(`side.${side}`) }));
    return this.t("SupportersRevealed", { list: items.join(this.t("sep")) });
  }
  e_ReinforcementTurned(e) { return this.t("ReinforcementTurned", { seat: this.seat(e.seat), card: this.a(e.card) }); }
  e_FightResolved(e) {
    return this.t(e.shogun_defence ? "FightResolved.shogun" : "FightResolved", { attack: e.attack_total, defence: e.defence_total,
      winner: this.seat(e.winner), loser: this.seat(e.loser), card: this.name(e.captured) });
  }
  e_ReinforcementTaken(e) {
    const bottom = e.to_bottom || [], winner = e.to_winner || [];
    let rest = "";
    if (bottom.length) rest += this.plural("ReinforcementTaken.bottom", bottom.length, { cards: this.some(bottom) });
    if (winner.length) rest += this.plural("ReinforcementTaken.winner", winner.length, { cards: this.some(winner), winner: this.seat(e.winner) });
    return this.t("ReinforcementTaken", { seat: this.seat(e.seat), card: this.name(e.card), rest });
  }
  e_RevolutionRoundOpened(e) { return this.t("RevolutionRoundOpened", { asked: this.seats(e.asked || []), announcer: this.seat(e.announcer) }); }
  e_RevolutionAnswered(e) {
    const seat = this.seat(e.seat);
    if (!e.joined) return this.t("RevolutionAnswered", { seat });
    if (e.card === null || e.card === undefined) return this.t("RevolutionAnswered.joined", { seat });
    return this.t("RevolutionAnswered.reveal", { seat, card: this.a(e.card) });
  }
  e_RevolutionResolved(e) {
    const lines = [this.t("RevolutionResolved", { revolters: this.seats(e.revolters || []), strength: e.strength })];
    const inh = e.inhabitants || [];
    if (inh.length) lines.push(this.t("RevolutionResolved.inhabitants", { list: this.pairs(inh) }));
    const victims = e.victims || [];
    const loot = new Map((e.loot || []).map(([s, cards]) => [s, cards]));
    if (victims.length) {
      lines.push(this.t("RevolutionResolved.victims", { list: victims.map((s) => this.t("RevolutionResolved.victim", { seat: this.seat(s), cards: this.cards(loot.get(s) || []) })).join("; ") }));
    } else lines.push(this.t("RevolutionResolved.no_victims"));
    const dealt = new Map();
    for (const [s, c] of e.dealt || []) { if (!dealt.has(s)) dealt.set(s, []); dealt.get(s).push(c); }
    if (dealt.size) {
      lines.push(this.t("RevolutionResolved.dealt", { list: [...dealt].map(([s, cs]) => this.t("RevolutionResolved.gets", { seat: this.seat(s), cards: this.cards(cs) })).join("; ") }));
    }
    lines.push(this.t("RevolutionResolved.workers"));
    return lines.join("\n");
  }
  e_SeasonEnded(e) {
    return this.t("SeasonEnded", { season: e.season, card: e.bonus_card !== null && e.bonus_card !== undefined ? ` (${this.name(e.bonus_card)})` : "" });
  }
  e_GeishaDrawn(e) {
    const key = `purpose.${e.purpose}`;
    const purpose = this.has(key) ? this.t(key) : `(${e.purpose})`;
    const by = e.seat !== null && e.seat !== undefined ? this.t("GeishaDrawn.by", { seat: this.seat(e.seat) }) : "";
    return this.t("GeishaDrawn", { purpose, by });
  }
  e_GameEnded(e) {
    const ranks = e.ranks || [], scores = e.scores || [];
    const firsts = ranks.map((r, s) => [r, s]).filter(([r]) => r === 1).map(([, s]) => s);
    const reason = this.reason(e.reason);
    if (e.ninja_victor !== null && e.ninja_victor !== undefined) return this.t("GameEnded.ninja", { reason, victor: cap(this.seat(e.ninja_victor)) });
    if (firsts.length) {
      const points = firsts[0] < scores.length ? scores[firsts[0]] : "?";
      return this.t(firsts.length === 1 ? "GameEnded.wins" : "GameEnded.share", { reason, firsts: cap(this.seats(firsts)), points });
    }
    return this.t("GameEnded", { reason });
  }
  transfer(t) {
    const args = { giver: this.seat(t.giver), card: this.name(t.card), receiver: this.seat(t.receiver) };
    if (t.consideration) return this.t("transfer.for", { consideration: t.consideration, ...args });
    return this.t("transfer", args);
  }
  promise(p) { return this.t("promise", { promiser: this.seat(p.promiser), promisee: this.seat(p.promisee), text: p.text ?? "" }); }
  e_DealProposed(e) {
    const others = (e.parties || []).filter((s) => s !== e.proposer);
    const parts = [...(e.transfers || []).map((t) => this.transfer(t)), ...(e.promises || []).map((p) => this.promise(p))];
    const args = { proposer: this.seat(e.proposer), deal: e.deal, others: this.seats(others), parts: this.list(parts) };
    let line = e.note ? this.t("DealProposed.note", { note: e.note, ...args }) : this.t("DealProposed", args);
    const why = e.why && typeof e.why === "object" ? e.why : null;
    if (why) line = this.t("DealProposed.why", { line, why: this.why(why) });
    if (e.counter_to !== null && e.counter_to !== undefined && !(why && why.code === "counter")) {
      line = this.t("DealProposed.counter", { line, deal: e.counter_to });
    }
    return line;
  }
  // A reason of R8.8 (a code with its parameters) in words; a code this
  // catalogue has no words for is shown as the code itself.
  why(why) {
    const code = why.code;
    const key = `why.${code}`;
    if (typeof code !== "string" || !(key in this.en)) return String(code);
    const args = {};
    for (const [k, v] of Object.entries(why)) if (k !== "code") args[k] = v;
    for (const k of ["seat", "attacker", "defender"]) if (k in args) args[k] = this.seat(args[k]);
    if (why.side === "attacker" || why.side === "defender") {
      args.side = this.t(`side.${why.side}`);
      args.fighter = this.seat(why[why.side]);
    }
    return this.t(key, args);
  }
  e_DealAccepted(e) { return this.t("DealAccepted", { seat: this.seat(e.seat), deal: e.deal }); }
  e_DealClosed(e) {
    const r = e.reason;
    if (r === "declined" || r === "withdrawn") {
      if (e.seat !== null && e.seat !== undefined) {
        if (r === "declined" && e.why && typeof e.why === "object") {
          return this.t("DealClosed.declined_why", { deal: e.deal, seat: this.seat(e.seat), why: this.why(e.why) });
        }
        return this.t(`DealClosed.${r}_by`, { deal: e.deal, seat: this.seat(e.seat) });
      }
      return this.t(`DealClosed.${r}`, { deal: e.deal });
    }
    if (r === "void" || r === "lapsed") return this.t(`DealClosed.${r}`, { deal: e.deal });
    return this.t("DealClosed", { deal: e.deal, reason: r });
  }
  e_DealExecuted(e) {
    const transfers = (e.transfers || []).map((t) => this.transfer(t));
    const moved = transfers.length ? this.list(transfers) : this.t("DealExecuted.nothing");
    const ids = e.promise_ids || [];
    if (ids.length) return this.t("DealExecuted.promises", { deal: e.deal, transfers: moved, ids: this.list(ids.map((i) => `#${i}`)) });
    return this.t("DealExecuted", { deal: e.deal, transfers: moved });
  }
  e_PromiseSettled(e) {
    const args = { promiser: this.seat(e.promiser), promise: e.promise };
    if (e.status === "released") return this.t("PromiseSettled.released", args);
    const word = this.has(`status.${e.status}`) ? this.t(`status.${e.status}`) : String(e.status);
    if (e.by !== null && e.by !== undefined) return this.t("PromiseSettled.by", { status: word, by: this.seat(e.by), ...args });
    return this.t("PromiseSettled", { status: word, ...args });
  }
}
