// How Oriente's log is grouped and marked (log.js draws it): a group per
// season, within it a group per fight from the defender's reveal to the
// result, and an icon per kind of event: symbols the common text fonts
// draw (DejaVu, Liberation), never an emoji that a machine without an emoji
// font shows as an empty box (tests/web/test_log_icons.py).
import { seatLabel } from "../../common.js";
import { app } from "../../state.js";

export const ICONS = {
  GameStarted: "▶", SeasonBegan: "☀", Passed: "·", Announced: "❢", PrivilegeRoundOpened: "♛", PrivilegePassed: "·",
  Fulfilled: "✔", BonusAwarded: "✚", IncomeDrawn: "✚", SuccessionDone: "⇄", CreditTaken: "✚", TradeDone: "⇄",
  Incited: "⚑", Assassinated: "☠", InhabitantDrawn: "▣", TransformationBegan: "✦", TransformationDone: "✦",
  FightBegan: "⚔", NegotiationDone: "✓", NegotiationClosed: "■", SupportDeclared: "☝", SupportersRevealed: "◉",
  ReinforcementTurned: "▣", FightResolved: "★", ReinforcementTaken: "▣", RevolutionRoundOpened: "⚐",
  RevolutionAnswered: "⚐", RevolutionResolved: "⚡", SeasonEnded: "☾", GeishaDrawn: "❀", GameEnded: "⚑",
  DealProposed: "✉", DealAccepted: "✍", DealClosed: "✖", DealExecuted: "⇌", PromiseSettled: "⚖",
};

export function logIcon(e) {
  return ICONS[e.type] || null;
}

// A season opens a group; a fight a group within it, closed once the
// attack is fulfilled (after the result and the loser's new inhabitant).
export function logGroup(ts, e) {
  if (e.type === "SeasonBegan") return { level: 1, kind: "season", title: app.t("board.season", { n: e.season }) };
  if (e.type === "FightBegan") {
    return { level: 2, kind: "fight", title: app.t("board.fight", { attacker: seatLabel(ts, e.attacker), defender: seatLabel(ts, e.defender) }) };
  }
  if (e.type === "Fulfilled" || e.type === "SeasonEnded" || e.type === "GameEnded") return "end";
  return null;
}
