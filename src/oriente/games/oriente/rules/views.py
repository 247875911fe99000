"""The one gate for hidden information (R10.4).

`view(state, viewer)` is everything a viewer may know now; `project(event,
viewer)` is what a viewer may see of one event. Nothing else turns engine
data into something a client gets. Both return plain data (dicts, lists,
ints, strings, None), ready for any codec.

Viewers: a seat number, `SPECTATOR` (public information only), or `EVERYONE`
(the post-game record: everything). Hidden is the default: a field that is
not listed here never leaves the engine, and an event of a type not listed
here (`PUBLIC`, `_REDACT`) reaches no viewer but `EVERYONE`.

A face-down card is shown as None: never an id a viewer could follow.
"""

from __future__ import annotations

from typing import Any

from ...kit.plain import plain
from ...kit.projection import withheld
from . import deals
from .decisions import DecisionKind, Timer, Topic
from .engine import legal, pending
from .legality import effective_rank
from .state import GameState, Phase

SPECTATOR = "spectator"
EVERYONE = "all"
Viewer = int | str
# Each enum member's value, read once: an Enum's `.value` is a property,
# and views are built for every viewer on every step.
_VALUE: dict[Any, str] = {m: m.value for e in (DecisionKind, Timer, Topic, Phase) for m in e}


def _sees_all(viewer: Viewer) -> bool:
    return viewer == EVERYONE


def project(event: Any, viewer: Viewer) -> dict:
    """What `viewer` may see of `event` (a typed event or its plain form).
    Every event has a projection for every viewer (at worst: that something
    happened, without the card). Public events come back as the same dict:
    treat the result as read-only."""
    full = event if isinstance(event, dict) else plain(event)
    if _sees_all(viewer) or full["type"] in PUBLIC:
        return full
    redact = _REDACT.get(full["type"])
    return withheld(full) if redact is None else redact(full, viewer)


def _game_started(e: dict, viewer: Viewer) -> dict:
    return {**e, "bonus_card": None,
            "inhabitants": [c if s == viewer else None for s, c in enumerate(e["inhabitants"])]}


def _own_card(e: dict, viewer: Viewer) -> dict:
    return e if e["seat"] == viewer else {**e, "card": None}


def _season_ended(e: dict, viewer: Viewer) -> dict:
    return {**e, "bonus_card": None}


def _privilege_passed(e: dict, viewer: Viewer) -> dict:
    return e if e["seat"] == viewer else {**e, "voided_claim": False}


def _transformation_began(e: dict, viewer: Viewer) -> dict:
    return e if e["seat"] == viewer else {**e, "taken": [[s, None] for s, _ in e["taken"]]}


def _transformation_done(e: dict, viewer: Viewer) -> dict:
    return {
        **e,
        "kept": e["kept"] if e["seat"] == viewer else None,
        "drawn": None,  # unseen even by the transforming seat (R5.3)
        "dealt": [[s, c if s == viewer else None] for s, c in e["dealt"]],
    }


# The only events with hidden parts; every other event is public (R10.4).
# The events every viewer sees whole. With those of _REDACT, every event
# type the rules emit; any other reaches no viewer but "all" (kit.projection).
PUBLIC = frozenset({
    "Announced", "Assassinated", "BonusAwarded", "CreditTaken", "DealAccepted", "DealClosed", "DealExecuted",
    "DealProposed", "FightBegan", "FightResolved", "Fulfilled", "GameEnded", "GeishaDrawn", "Incited",
    "IncomeDrawn", "NegotiationClosed", "NegotiationDone", "Passed", "PrivilegeRoundOpened", "PromiseSettled",
    "ReinforcementTaken", "ReinforcementTurned", "RevolutionAnswered", "RevolutionResolved",
    "RevolutionRoundOpened", "SeasonBegan", "SuccessionDone", "SupportDeclared", "SupportersRevealed",
    "TradeDone",
})

# The events with hidden parts, each with what hides them.
_REDACT = {
    "GameStarted": _game_started,
    "InhabitantDrawn": _own_card,
    "SeasonEnded": _season_ended,
    "PrivilegePassed": _privilege_passed,
    "TransformationBegan": _transformation_began,
    "TransformationDone": _transformation_done,
}
# Every event type this projection knows (tests: every type the rules define).
LISTED = PUBLIC | frozenset(_REDACT)


def _open_deal(d: Any) -> dict:
    """An open proposal as every viewer sees it (R8.4: deals are public);
    `counter_to` and `why` (R8.8) only when its proposer gave them."""
    out = {"deal": d.id, "proposer": d.proposer, "parties": list(d.parties),
           "transfers": plain(d.transfers), "promises": plain(d.promises), "accepted": sorted(d.accepted)}
    if d.counter_to is not None:
        out["counter_to"] = d.counter_to
    if d.why is not None:
        out["why"] = dict(d.why)
    return out


def decision_views(state: GameState, viewers: list[Viewer]) -> dict[Viewer, dict | None]:
    """decision_view for several viewers, sharing the common part (the
    table server builds one prompt per viewer on every step)."""
    base = _decision_base(state)
    out: dict[Viewer, dict | None] = {}
    for viewer in viewers:
        out[viewer] = None if base is None else _decision_for(state, base, viewer)
    return out


def decision_view(state: GameState, viewer: Viewer) -> dict | None:
    """The open decision as `viewer` may see it: who is asked, the pivot,
    what silence means, published answers, its own sealed answer, and its
    legal commands."""
    base = _decision_base(state)
    return None if base is None else _decision_for(state, base, viewer)


def _decision_base(state: GameState) -> dict | None:
    decisions = pending(state)
    if not decisions:
        return None
    d = decisions[0]
    out: dict[str, Any] = {
        "id": d.id, "kind": _VALUE[d.kind], "topic": _VALUE[d.topic], "rule": d.rule,
        "asked": list(d.asked), "pivot": d.pivot, "early": list(d.early),
        "timer": _VALUE[d.timer], "silence": d.silence,
    }
    rnd = state.round
    if rnd is not None:
        out["published"] = [[s, plain(a)] for s, a in rnd.published]
        if d.kind is DecisionKind.WINDOW:
            out["done"] = list(rnd.done)  # the fighters that said done (R10.2b1), public
        if rnd.topic is Topic.PRIVILEGE:
            out["rank"] = effective_rank(state)  # the rank a claim must reach (R4.3c), public
    return out


def _decision_for(state: GameState, base: dict, viewer: Viewer) -> dict:
    out = dict(base)
    rnd = state.round
    if rnd is not None:
        # A sealed answer is shown to its own seat only, not even that it exists (R10.2).
        if isinstance(viewer, int) and viewer in rnd.sealed:
            out["sealed"] = plain(rnd.sealed[viewer])
        elif _sees_all(viewer):
            out["sealed"] = {str(s): plain(c) for s, c in rnd.sealed.items()}
    if isinstance(viewer, int):
        # Every seat gets its own legal commands: the decision's answers if it
        # is asked, and always its deal options (accept, decline, settle...).
        out["legal"] = [plain(c) for c in legal(state, viewer)]
        # Proposing is open-ended, so it is described rather than listed (R8).
        out["deal"] = deals.capability(state, viewer)
    return out


def view(state: GameState, viewer: Viewer) -> dict:
    """Everything `viewer` may know now (R10.4)."""
    return views_of(state, [viewer])[viewer]


def views_of(state: GameState, viewers: list[Viewer], decisions: dict[Viewer, dict | None] | None = None,
          ) -> dict[Viewer, dict]:
    """`view` for several viewers of one state. The table server sends every
    viewer its view on every step, and most of a view is public: that part
    is built once and shared by every viewer's view (treat them as
    read-only); only the cards, who knows them, the decision and what a
    seat has seen are built per viewer. `decisions`, if given, are this
    state's `decision_views` for these viewers (read-only: each view gets
    a copy), so that the legal commands are not listed twice."""
    n = state.n
    all_mask = state.all_mask
    knows = state.knows
    slots = [{"seat": s, "disc": state.disc[s], "revealed": state.revealed[s], "pile": list(state.pile[s]),
              "kept": state.kept[s], "broken": state.broken[s]} for s in range(n)]
    head: dict[str, Any] = {
        "season": state.season,
        "phase": _VALUE[state.phase],
        "stone_holder": state.stone,
        "workers": {"supply": state.supply, "hut": state.hut, "square": state.square,
                    "hut_used": state.hut_used},
        "deck_size": len(state.deck),
        "deck_bottom": list(state.deck[: state.known_bottom]),
        "bonus_size": len(state.bonus),
        "bonus_set_aside": len(state.set_aside),
        "bonus_awarded": state.bonus_awarded,
        "geisha": state.geisha_out,
    }
    tail: dict[str, Any] = {
        "announcer": state.announcer,
        "action": plain(state.action),
        "chain": [s for s in range(n) if state.chain_mask >> s & 1],
        "fight": None,
        "max_open_proposals": state.config.max_open_proposals,
        "deals": [_open_deal(d) for d in state.deals.values()],
        "ledger": [
            {"promise": e.id, "deal": e.deal, "season": e.season, "status": e.status, **plain(e.promise)}
            for e in state.ledger.values()
        ],
        "result": plain(state.result) if state.result is not None else None,
    }
    if state.fight is not None:
        f = state.fight
        tail["fight"] = {"attacker": f.attacker, "defender": f.defender,
                         "reinforcements": [list(r) for r in f.reinforcements]}
    shared = decisions is not None
    if decisions is None:
        decisions = decision_views(state, viewers)
    in_play = state.in_play
    out: dict[Viewer, dict] = {}
    for viewer in viewers:
        everyone = _sees_all(viewer)
        me = viewer if isinstance(viewer, int) and viewer >= 0 else -1
        seat_bit = 1 << me if me >= 0 else 0
        seats = []
        for s in range(n):
            card = state.inhabitant[s]
            if card is None:
                seats.append({**slots[s], "inhabitant": None, "empty": True, "known_to": "all"})
                continue
            mask = knows[card]
            known_to: list[int] | str
            if mask == all_mask:
                seen, known_to = True, "all"
            elif everyone:
                seen, known_to = True, [t for t in range(n) if mask >> t & 1]
            else:
                seen = bool(mask & seat_bit)
                # Who knows it, as far as the viewer can tell: the owner, and the viewer if it does.
                known_to = sorted((s, me)) if seen and me != s else [s]
            seats.append({**slots[s], "inhabitant": card if seen else None, "empty": False, "known_to": known_to})
        decision = decisions[viewer]
        one: dict[str, Any] = {
            "viewer": viewer,
            "seats": seats,
            **head,
            "in_play": [c if everyone or knows[c] == all_mask or knows[c] & seat_bit else None for c in in_play],
            "decision": dict(decision) if shared and decision is not None else decision,
            **tail,
        }
        if isinstance(viewer, int):
            one["seen"] = [{"season": season, "cards": list(cards)} for season, cards in state.seen[viewer]]
        elif everyone:
            one["seen"] = {str(s): [{"season": a, "cards": list(b)} for a, b in state.seen[s]] for s in range(n)}
            one["deck"] = list(state.deck)
            one["bonus"] = list(state.bonus)
            one["out_of_game"] = list(state.out_of_game)
        out[viewer] = one
    return out
