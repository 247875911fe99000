// What the step drawn last changed, seat by seat, so that the table marks
// it until the next step (pace.js draws one step at a time): who
// announced or claimed, who passed, who fought and who won, which cards
// went onto or left a score pile, who has a new inhabitant, which deal
// was made. Read from the step's events alone (ts.fresh), as this viewer
// got them: a card the viewer may not see is not named.
import { app } from "../../state.js";
import { cardRef } from "./cards.js";

// The icon of each kind of mark (the words are the catalogue's "change.KIND").
export const ICONS = {
  announced: "❢", claimed: "♛", pre_empted: "↩", passed: "·", fulfilled: "✔", gained: "+", lost: "−",
  new_inhabitant: "▣", attacks: "⚔", defends: "◈", supports: "☝", won: "★", beaten: "✖", joined: "⚐",
  deal: "⇌", incited: "⚑", succession: "⇄", revolution: "⚡",
};

const cardsText = (cards) => cards.filter((c) => c !== null && c !== undefined)
  .map((c) => cardRef().name(c, app.lang)).join(", ");

// seat -> [{kind, args}] for the step, and the cards that reached a pile in it.
export function changesOf(events, actionText) {
  const marks = new Map();
  const arrived = new Set();
  const mark = (seat, kind, args = {}) => {
    if (seat === null || seat === undefined) return;
    if (!marks.has(seat)) marks.set(seat, []);
    marks.get(seat).push({ kind, args });
  };
  const gain = (seat, cards) => {
    const shown = (cards || []).filter((c) => c !== null && c !== undefined);
    if (!shown.length) return;
    shown.forEach((c) => arrived.add(c));
    mark(seat, "gained", { cards: cardsText(shown) });
  };
  const lose = (seat, cards) => {
    const shown = (cards || []).filter((c) => c !== null && c !== undefined);
    if (shown.length) mark(seat, "lost", { cards: cardsText(shown) });
  };
  for (const e of events || []) {
    switch (e.type) {
      case "Announced":
        mark(e.seat, e.claim ? "claimed" : "announced", { action: actionText(e.action) });
        if (e.claim) mark(e.over, "pre_empted");
        break;
      case "Passed": case "PrivilegePassed": mark(e.seat, "passed"); break;
      case "Fulfilled": mark(e.seat, "fulfilled", { action: actionText(e.action) }); break;
      case "BonusAwarded": gain(e.seat, e.cards); break;
      case "IncomeDrawn": gain(e.seat, [e.card]); break;
      case "SuccessionDone": mark(e.seat, "succession"); mark(e.target, "succession"); break;
      case "CreditTaken": gain(e.seat, e.cards); lose(e.target, e.cards); break;
      case "TradeDone": gain(e.target, [e.given]); lose(e.seat, [e.given]); gain(e.seat, [e.drawn]); lose(e.target, [e.drawn]); break;
      case "Incited": mark(e.seat, "incited"); break;
      case "Assassinated": gain(e.seat, [e.card]); mark(e.target, "beaten"); break;
      case "InhabitantDrawn": mark(e.seat, "new_inhabitant"); break;
      case "FightBegan": mark(e.attacker, "attacks"); mark(e.defender, "defends"); break;
      case "SupportDeclared":
        if (e.side) mark(e.seat, "supports", { side: app.t(`side.${e.side}`) }); else mark(e.seat, "passed");
        break;
      case "FightResolved":
        mark(e.winner, "won");
        gain(e.winner, [e.captured]);
        mark(e.loser, "beaten");
        break;
      case "ReinforcementTaken": mark(e.seat, "new_inhabitant"); gain(e.winner, e.to_winner); break;
      case "RevolutionAnswered": mark(e.seat, e.joined ? "joined" : "passed"); break;
      case "RevolutionResolved":
        mark(e.seat, "revolution");
        for (const v of e.victims || []) mark(v, "beaten");
        break;
      case "DealExecuted":
        for (const tr of e.transfers || []) { gain(tr.receiver, [tr.card]); lose(tr.giver, [tr.card]); }
        for (const s of new Set((e.transfers || []).flatMap((tr) => [tr.giver, tr.receiver]))) mark(s, "deal", { n: e.deal });
        break;
      default: break;
    }
  }
  return { marks, arrived };
}
