"""`views_of`: the views of several viewers of one state, built in one pass.

The hidden-information tests check `view` viewer by viewer; the table
server builds every viewer's view of a step at once, sharing what is
public. Whatever a viewer gets that way must be exactly (byte for byte,
key order too) what `view` gives it alone, whoever else is in the pass and
in whatever order; and a decision handed in (the server's prompt, which it
then times in place) must not change a view once built.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from oriente.games import PORTS
from oriente.games.kit.replay import Replay
from oriente.games.kit.selfplay import play
from oriente.games.oriente.rules.views import EVERYONE, SPECTATOR, decision_views, view, views_of
from oriente.protocol.codec import encode


def _states(seats: int, seed: int, policy: str):
    port = PORTS["oriente"]
    game = play(port, seats, seed, policy)
    replayed = Replay.start(port, game.setup.config)
    yield replayed.state
    for seat, command in game.commands:
        replayed.apply(seat, command)
        yield replayed.state


@settings(max_examples=6, deadline=None)
@given(seats=st.integers(min_value=4, max_value=8), seed=st.integers(min_value=0, max_value=2**32),
       policy=st.sampled_from(["random", "shrewd", "ruthless"]))
def test_each_view_of_a_pass_is_the_view_alone(seats, seed, policy):
    viewers = [*range(seats), SPECTATOR, EVERYONE]
    for state in _states(seats, seed, policy):
        alone = {v: encode(view(state, v)) for v in viewers}
        for order in (viewers, viewers[::-1]):
            together = views_of(state, order)
            assert {v: encode(together[v]) for v in order} == alone
        decisions = decision_views(state, viewers)
        handed = views_of(state, viewers, decisions)
        for d in decisions.values():  # what the server does to its prompts afterwards
            if d is not None:
                d["deadline_ms"] = 1
        assert {v: encode(handed[v]) for v in viewers} == alone


def test_a_seat_sees_its_own_card_and_not_the_others_in_a_pass():
    state = next(_states(5, 7, "random"))
    together = views_of(state, [0, 1, SPECTATOR])
    for seat in (0, 1):
        cards = [slot["inhabitant"] for slot in together[seat]["seats"]]
        assert cards[seat] == state.inhabitant[seat]
        assert all(c is None for s, c in enumerate(cards) if s != seat and state.knows[state.inhabitant[s]]
                   != state.all_mask)
    assert all(slot["known_to"] in ("all", [slot["seat"]]) for slot in together[SPECTATOR]["seats"])
