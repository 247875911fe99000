"""Oriente's projected events in plain words (docs/rules.md).

The narrator every game shares (`oriente.clients.narrate.Narrator`: one
catalogue per language, seats as labels, a line for any event), with
Oriente's own events: their words are in this game's catalogues
(`words/LANG.json`, the "narrate" part), which the page reads too. The page
runs the same logic (`clients/web/src/games/oriente/narrate.js`); a test
checks that both tell every event of many games in the same words, in
every language. So a sentence is changed in one place, for both.

The input is what a client receives: the plain dict `views.project(event,
viewer)` makes, where "type" is the event's class name and a card the viewer
may not see is None. Nothing here reads the game state, so a narration can
only say what the projection already told this viewer; hiding stays the
engine's job (R10.4).

Seats are numbered as the engine numbers them (0..n-1, R1.4), so that what
is read here matches commands, records and `--as SEAT`; a client that knows
names passes a `label` for seats.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from oriente.clients.narrate import Label, Narrator, Viewer, _cap
from oriente.games.oriente.rules.reference import card_name_in, kind_id

__all__ = ["KNOWN_TYPES", "OrienteNarrator", "action_phrase", "describe_result", "narrate", "narrator"]


def _is_you(seat: Any, viewer: Viewer) -> bool:
    return isinstance(viewer, int) and not isinstance(viewer, bool) and seat == viewer


class OrienteNarrator(Narrator):
    """Oriente's events as lines. `label` names a seat ("seat 3", or a
    player's name); by default the catalogue's "seat {n}"."""

    words_dir: ClassVar[Path | None] = Path(__file__).resolve().parent / "words"

    # -- small words ----------------------------------------------------------------

    def name(self, card: int | None) -> str:
        return self.t("hidden_card") if card is None else card_name_in(card, self.lang)

    def a(self, card: int | None) -> str:
        """'a Samurai', 'an Akindo', 'Treasure 3'."""
        if card is None:
            return self.t("hidden_card")
        kind = kind_id(card)
        key = f"card_a.{kind}" if f"card_a.{kind}" in self.words else "card_a"
        return self.t(key, card=self.name(card))

    def cards(self, cards: Iterable[int | None]) -> str:
        return self.list(self.name(c) for c in cards)

    def some(self, cards: Iterable[int | None]) -> str:
        return self.list(self.a(c) for c in cards)

    def secret(self, card: int | None, seat: Any, viewer: Viewer) -> str:
        """A card only some viewers see: '(hidden)', '(you: Nofu)' or '(Nofu)'."""
        if card is None:
            return self.t("secret_hidden")
        if _is_you(seat, viewer):
            return self.t("secret_you", card=self.name(card))
        return self.t("secret_shown", card=self.name(card))

    def action(self, action: dict | None, *, bare: bool = False) -> str:
        if not action:
            return self.t("action.none")
        kind = action.get("kind")
        target = action.get("target")
        key = f"{'bare' if bare else 'action'}.{kind}"
        if key not in self.words:
            return str(kind) + (f" {self.seat(target)}" if target is not None else "")
        return self.t(key, target=self.seat(target))

    def pairs(self, pairs: Iterable[Any]) -> str:
        return self.t("sep").join(self.t("GameStarted.pair", seat=self.seat(s), card=self.name(c)) for s, c in pairs)


    # -- events ---------------------------------------------------------------------

    def _e_GameStarted(self, e: dict, viewer: Viewer) -> str:
        lines = [self.t("GameStarted", n=e["seats"], stone=self.seat(e["stone_holder"]))]
        treasures = e.get("treasures") or []
        if treasures:
            lines.append(self.t("GameStarted.treasures", list=self.pairs(enumerate(treasures))))
        inhabitants = e.get("inhabitants") or []
        shown = [(s, c) for s, c in enumerate(inhabitants) if c is not None]
        args = {"bonus": self.secret(e.get("bonus_card"), None, viewer), "deck": e["deck_size"]}
        if shown and len(shown) == len(inhabitants):
            lines.append(self.t("GameStarted.inhabitants_all", list=self.pairs(shown), **args))
        elif shown:
            secrets = "; ".join(self.secret(c, s, viewer) for s, c in shown)
            lines.append(self.t("GameStarted.inhabitants_some", secrets=secrets, **args))
        else:
            lines.append(self.t("GameStarted.inhabitants_none", **args))
        lines.append(self.t("GameStarted.hut" if e.get("hut_used") else "GameStarted.no_hut"))
        return "\n".join(lines)

    def _e_SeasonBegan(self, e: dict, viewer: Viewer) -> str:
        return self.t("SeasonBegan", season=e["season"], stone=self.seat(e["stone_holder"]),
                      bonus=self.plural("count.card", e.get("bonus_size", 0)))

    def _e_Passed(self, e: dict, viewer: Viewer) -> str:
        return self.t("Passed", seat=self.seat(e["seat"]))

    def _e_Announced(self, e: dict, viewer: Viewer) -> str:
        card = e.get("card")
        seat = self.seat(e["seat"])
        if e.get("claim"):
            return self.t("Announced.claim", seat=seat, over=self.seat(e.get("over")), card=self.a(card),
                          action=self.action(e.get("action"), bare=True))
        if card is not None:
            return self.t("Announced.reveal", seat=seat, action=self.action(e.get("action")), card=self.a(card))
        return self.t("Announced", seat=seat, action=self.action(e.get("action")))

    def _e_PrivilegeRoundOpened(self, e: dict, viewer: Viewer) -> str:
        return self.t("PrivilegeRoundOpened", asked=self.seats(e.get("asked") or []),
                      announcer=self.seat(e["announcer"]), rank=e["rank"])

    def _e_PrivilegePassed(self, e: dict, viewer: Viewer) -> str:
        return self.t("PrivilegePassed.voided" if e.get("voided_claim") else "PrivilegePassed",
                      seat=self.seat(e["seat"]))

    def _e_Fulfilled(self, e: dict, viewer: Viewer) -> str:
        seat, action = self.seat(e["seat"]), self.action(e.get("action"))
        aside = e.get("bonus_set_aside", 0)
        if aside:
            return self.plural("Fulfilled.aside", aside, seat=seat, action=action,
                               count=self.plural("count.bonus", aside))
        return self.t("Fulfilled", seat=seat, action=action)

    def _e_BonusAwarded(self, e: dict, viewer: Viewer) -> str:
        cards = e.get("cards") or []
        seat = self.seat(e["seat"])
        if e.get("blessing"):
            if not cards:
                return self.t("BonusAwarded.blessing_none", seat=seat)
            return self.t("BonusAwarded.blessing", seat=seat, cards=self.cards(cards))
        return self.t("BonusAwarded", seat=seat, cards=self.cards(cards))

    def _e_IncomeDrawn(self, e: dict, viewer: Viewer) -> str:
        return self.t("IncomeDrawn", seat=self.seat(e["seat"]), card=self.a(e.get("card")))

    def _e_SuccessionDone(self, e: dict, viewer: Viewer) -> str:
        args = {"seat": self.seat(e["seat"]), "target": self.seat(e["target"])}
        if not e.get("done"):
            return self.t("SuccessionDone.failed", **args)
        return self.t("SuccessionDone.pile" if e.get("from_pile") else "SuccessionDone", **args)

    def _e_CreditTaken(self, e: dict, viewer: Viewer) -> str:
        cards = e.get("cards") or []
        args = {"seat": self.seat(e["seat"]), "target": self.seat(e["target"])}
        if not cards:
            return self.t("CreditTaken.none", **args)
        return self.t("CreditTaken", n=len(cards), **args)

    def _e_TradeDone(self, e: dict, viewer: Viewer) -> str:
        target = self.seat(e["target"])
        given, drawn = e.get("given"), e.get("drawn")
        give = (self.t("TradeDone.give", card=self.name(given), target=target) if given is not None
                else self.t("TradeDone.give_none", target=target))
        draw = self.t("TradeDone.draw", card=self.name(drawn)) if drawn is not None else self.t("TradeDone.draw_none")
        return self.t("TradeDone", seat=self.seat(e["seat"]), give=give, draw=draw)

    def _e_Incited(self, e: dict, viewer: Viewer) -> str:
        where = {"hut": "Incited.hut", "square": "Incited.square"}.get(e.get("moved_to"), "Incited.none")  # type: ignore[arg-type]
        return self.t("Incited", seat=self.seat(e["seat"]), where=self.t(where), supply=e.get("supply"),
                      hut=e.get("hut"), square=e.get("square"))

    def _e_Assassinated(self, e: dict, viewer: Viewer) -> str:
        return self.t("Assassinated", seat=self.seat(e["seat"]), target=self.seat(e["target"]),
                      card=self.name(e.get("card")))

    def _e_InhabitantDrawn(self, e: dict, viewer: Viewer) -> str:
        return self.t("InhabitantDrawn", seat=self.seat(e["seat"]),
                      secret=self.secret(e.get("card"), e["seat"], viewer))

    def _e_TransformationBegan(self, e: dict, viewer: Viewer) -> str:
        seen = [(s, c) for s, c in e.get("taken") or [] if c is not None]
        seat = self.seat(e["seat"])
        if not seen:
            return self.t("TransformationBegan", seat=seat)
        who = self.t("TransformationBegan.you_see" if _is_you(e["seat"], viewer) else "TransformationBegan.it_sees")
        return self.t("TransformationBegan.seen", seat=seat, who=who, list=self.pairs(seen))

    def _e_TransformationDone(self, e: dict, viewer: Viewer) -> str:
        kept, drawn = e.get("kept"), e.get("drawn")
        kept_text = f" {self.secret(kept, e['seat'], viewer)}" if kept is not None else ""
        drawn_text = f" ({self.name(drawn)})" if drawn is not None else ""
        dealt = [(s, c) for s, c in e.get("dealt") or [] if c is not None]
        dealt_text = ""
        if dealt and all(not _is_you(s, viewer) for s, _ in dealt):
            dealt_text = ": " + self.pairs(dealt)
        elif dealt:
            dealt_text = " " + " ".join(self.secret(c, s, viewer) for s, c in dealt)
        return self.t("TransformationDone", seat=self.seat(e["seat"]), kept=kept_text, drawn=drawn_text,
                      dealt=dealt_text)

    def _e_FightBegan(self, e: dict, viewer: Viewer) -> str:
        asked = e.get("asked") or []
        tail = _cap(self.t("FightBegan.asked", asked=self.seats(asked))) if asked else self.t("FightBegan.nobody")
        card = e.get("defender_card")
        args = {"defender": self.seat(e["defender"]), "attacker": self.seat(e["attacker"]), "tail": tail}
        if card is None:
            return self.t("FightBegan.hidden", **args)
        return self.t("FightBegan", card=self.a(card), **args)

    def _e_NegotiationDone(self, e: dict, viewer: Viewer) -> str:
        return _cap(self.t("NegotiationDone", seat=self.seat(e["seat"])))

    def _e_NegotiationClosed(self, e: dict, viewer: Viewer) -> str:
        return self.t("NegotiationClosed")

    def _e_SupportDeclared(self, e: dict, viewer: Viewer) -> str:
        side = e.get("side")
        if side is None:
            return self.t("SupportDeclared.none", seat=self.seat(e["seat"]))
        return self.t("SupportDeclared", seat=self.seat(e["seat"]), side=self.t(f"side.{side}"))

    def _e_SupportersRevealed(self, e: dict, viewer: Viewer) -> str:
        items = [self.t("SupportersRevealed.item", seat=self.seat(s), card=self.name(c), side=self.t(f"side.{side}"))
                 for s, c, side in e.get("supporters") or []]
        return self.t("SupportersRevealed", list=self.t("sep").join(items))

    def _e_ReinforcementTurned(self, e: dict, viewer: Viewer) -> str:
        return self.t("ReinforcementTurned", seat=self.seat(e["seat"]), card=self.a(e.get("card")))

    def _e_FightResolved(self, e: dict, viewer: Viewer) -> str:
        return self.t("FightResolved.shogun" if e.get("shogun_defence") else "FightResolved",
                      attack=e["attack_total"], defence=e["defence_total"], winner=self.seat(e["winner"]),
                      loser=self.seat(e["loser"]), card=self.name(e.get("captured")))

    def _e_ReinforcementTaken(self, e: dict, viewer: Viewer) -> str:
        bottom = e.get("to_bottom") or []
        winner = e.get("to_winner") or []
        rest = ""
        if bottom:
            rest += self.plural("ReinforcementTaken.bottom", len(bottom), cards=self.some(bottom))
        if winner:
            rest += self.plural("ReinforcementTaken.winner", len(winner), cards=self.some(winner),
                                winner=self.seat(e.get("winner")))
        return self.t("ReinforcementTaken", seat=self.seat(e["seat"]), card=self.name(e.get("card")), rest=rest)

    def _e_RevolutionRoundOpened(self, e: dict, viewer: Viewer) -> str:
        return self.t("RevolutionRoundOpened", asked=self.seats(e.get("asked") or []),
                      announcer=self.seat(e["announcer"]))

    def _e_RevolutionAnswered(self, e: dict, viewer: Viewer) -> str:
        seat = self.seat(e["seat"])
        if not e.get("joined"):
            return self.t("RevolutionAnswered", seat=seat)
        card = e.get("card")
        if card is None:
            return self.t("RevolutionAnswered.joined", seat=seat)
        return self.t("RevolutionAnswered.reveal", seat=seat, card=self.a(card))

    def _e_RevolutionResolved(self, e: dict, viewer: Viewer) -> str:
        lines = [self.t("RevolutionResolved", revolters=self.seats(e.get("revolters") or []),
                        strength=e["strength"])]
        inhabitants = e.get("inhabitants") or []
        if inhabitants:
            lines.append(self.t("RevolutionResolved.inhabitants", list=self.pairs(inhabitants)))
        victims = e.get("victims") or []
        loot = {s: cards for s, cards in e.get("loot") or []}
        if victims:
            lines.append(self.t("RevolutionResolved.victims", list="; ".join(
                self.t("RevolutionResolved.victim", seat=self.seat(s), cards=self.cards(loot.get(s) or []))
                for s in victims)))
        else:
            lines.append(self.t("RevolutionResolved.no_victims"))
        dealt: dict[Any, list] = {}
        for s, c in e.get("dealt") or []:
            dealt.setdefault(s, []).append(c)
        if dealt:
            lines.append(self.t("RevolutionResolved.dealt", list="; ".join(
                self.t("RevolutionResolved.gets", seat=self.seat(s), cards=self.cards(cs)) for s, cs in dealt.items())))
        lines.append(self.t("RevolutionResolved.workers"))
        return "\n".join(lines)

    def _e_SeasonEnded(self, e: dict, viewer: Viewer) -> str:
        card = e.get("bonus_card")
        return self.t("SeasonEnded", season=e["season"], card=f" ({self.name(card)})" if card is not None else "")

    def _e_GeishaDrawn(self, e: dict, viewer: Viewer) -> str:
        purpose = e.get("purpose")
        key = f"purpose.{purpose}"
        text = self.t(key) if key in self.words else f"({purpose})"
        by = self.t("GeishaDrawn.by", seat=self.seat(e["seat"])) if e.get("seat") is not None else ""
        return self.t("GeishaDrawn", purpose=text, by=by)

    def reason(self, reason: Any) -> str:
        key = f"reason.{reason}"
        return self.t(key) if key in self.words else str(reason)

    def _e_GameEnded(self, e: dict, viewer: Viewer) -> str:
        ranks = e.get("ranks") or []
        scores = e.get("scores") or []
        firsts = [s for s, r in enumerate(ranks) if r == 1]
        reason = self.reason(e.get("reason"))
        if e.get("ninja_victor") is not None:
            return self.t("GameEnded.ninja", reason=reason, victor=_cap(self.seat(e["ninja_victor"])))
        if firsts:
            points = scores[firsts[0]] if firsts[0] < len(scores) else "?"
            return self.t("GameEnded.wins" if len(firsts) == 1 else "GameEnded.share", reason=reason,
                          firsts=_cap(self.seats(firsts)), points=points)
        return self.t("GameEnded", reason=reason)

    def transfer(self, t: dict) -> str:
        args = {"giver": self.seat(t.get("giver")), "card": self.name(t.get("card")),
                "receiver": self.seat(t.get("receiver"))}
        if t.get("consideration"):
            return self.t("transfer.for", consideration=t["consideration"], **args)
        return self.t("transfer", **args)

    def promise(self, p: dict) -> str:
        return self.t("promise", promiser=self.seat(p.get("promiser")), promisee=self.seat(p.get("promisee")),
                      text=p.get("text", ""))

    def _e_DealProposed(self, e: dict, viewer: Viewer) -> str:
        others = [s for s in e.get("parties") or [] if s != e.get("proposer")]
        parts = [*(self.transfer(t) for t in e.get("transfers") or []),
                 *(self.promise(p) for p in e.get("promises") or [])]
        args = {"proposer": self.seat(e["proposer"]), "deal": e["deal"], "others": self.seats(others),
                "parts": self.list(parts)}
        line = self.t("DealProposed.note", note=e["note"], **args) if e.get("note") else \
            self.t("DealProposed", **args)
        why = e.get("why")
        if isinstance(why, dict):
            line = self.t("DealProposed.why", line=line, why=self.why(why))
        counter = e.get("counter_to")
        if counter is not None and not (isinstance(why, dict) and why.get("code") == "counter"):
            line = self.t("DealProposed.counter", line=line, deal=counter)
        return line

    # A reason's parameters that name a seat (R8.8).
    _WHY_SEATS = ("seat", "attacker", "defender")

    def why(self, why: dict) -> str:
        """A reason of R8.8 (a code with its parameters) in words; a code
        this catalogue has no words for is shown as the code itself."""
        code = why.get("code")
        key = f"why.{code}"
        if not isinstance(code, str) or key not in self.en:
            return str(code)
        args: dict[str, Any] = {k: v for k, v in why.items() if k != "code"}
        for k in self._WHY_SEATS:
            if k in args:
                args[k] = self.seat(args[k])
        side = why.get("side")
        if side in ("attacker", "defender"):
            args["side"] = self.t(f"side.{side}")
            args["fighter"] = self.seat(why.get(side))
        return self.t(key, **args)

    def _e_DealAccepted(self, e: dict, viewer: Viewer) -> str:
        return self.t("DealAccepted", seat=self.seat(e["seat"]), deal=e["deal"])

    def _e_DealClosed(self, e: dict, viewer: Viewer) -> str:
        reason = e.get("reason")
        deal = e["deal"]
        if reason in ("declined", "withdrawn"):
            if e.get("seat") is not None:
                if reason == "declined" and isinstance(e.get("why"), dict):
                    return self.t("DealClosed.declined_why", deal=deal, seat=self.seat(e["seat"]),
                                  why=self.why(e["why"]))
                return self.t(f"DealClosed.{reason}_by", deal=deal, seat=self.seat(e["seat"]))
            return self.t(f"DealClosed.{reason}", deal=deal)
        if reason in ("void", "lapsed"):
            return self.t(f"DealClosed.{reason}", deal=deal)
        return self.t("DealClosed", deal=deal, reason=reason)

    def _e_DealExecuted(self, e: dict, viewer: Viewer) -> str:
        transfers = [self.transfer(t) for t in e.get("transfers") or []]
        moved = self.list(transfers) if transfers else self.t("DealExecuted.nothing")
        ids = e.get("promise_ids") or []
        if ids:
            return self.t("DealExecuted.promises", deal=e["deal"], transfers=moved,
                          ids=self.list(f"#{i}" for i in ids))
        return self.t("DealExecuted", deal=e["deal"], transfers=moved)

    def _e_PromiseSettled(self, e: dict, viewer: Viewer) -> str:
        status = e.get("status")
        args = {"promiser": self.seat(e["promiser"]), "promise": e["promise"]}
        if status == "released":
            return self.t("PromiseSettled.released", **args)
        word = self.t(f"status.{status}") if f"status.{status}" in self.words else str(status)
        if e.get("by") is not None:
            return self.t("PromiseSettled.by", status=word, by=self.seat(e["by"]), **args)
        return self.t("PromiseSettled", status=word, **args)

    def describe_result(self, result: dict) -> str:
        """The final table of a plain GameEnded: one row per seat, best rank
        first, with the cards that broke ties (R9.4)."""
        scores = result.get("scores") or []
        ranks = result.get("ranks") or []
        inhabitants = result.get("inhabitants") or []
        tiebreaks = result.get("tiebreaks") or []
        reason = self.reason(result.get("reason"))
        victor = result.get("ninja_victor")
        lines = [self.t("result.title_ninja", reason=reason, victor=self.seat(victor)) if victor is not None
                 else self.t("result.title", reason=reason), self.t("result.header")]
        order = sorted(range(len(scores)), key=lambda s: (ranks[s] if s < len(ranks) else 0, s))
        for s in order:
            inh = inhabitants[s] if s < len(inhabitants) else None
            name = self.name(inh) if inh is not None else "-"
            values = " ".join(str(v) for v in (tiebreaks[s] if s < len(tiebreaks) else []))
            rank = ranks[s] if s < len(ranks) else "?"
            lines.append(f"{rank:>4}  {s:>4}  {scores[s]:>5}  {name:<11}  {values}")
        return "\n".join(lines)


KNOWN_TYPES = frozenset(name[3:] for name in vars(OrienteNarrator) if name.startswith("_e_"))


@cache
def _narrator(lang: str) -> OrienteNarrator:
    return OrienteNarrator(lang)


def narrator(lang: str = "en", label: Label | None = None, view: dict[str, Any] | None = None) -> OrienteNarrator:
    """The narrator of a table of Oriente (its words need nothing of a view)."""
    return OrienteNarrator(lang, label)


def narrate(event: dict, viewer: Viewer = None, *, lang: str = "en") -> str:
    """One or a few lines for one projected event of Oriente."""
    return _narrator(lang).narrate(event, viewer)


def action_phrase(action: dict | None, *, bare: bool = False, lang: str = "en") -> str:
    """An announced action as words: 'an attack on seat 4' (or, bare,
    'attack on seat 4', as after 'with a Daimyo:')."""
    return _narrator(lang).action(action, bare=bare)


def describe_result(result: dict, *, lang: str = "en") -> str:
    """The final table of Oriente's GameEnded (R9.3, R9.4)."""
    return _narrator(lang).describe_result(result)
