"""Ids and tokens a command line takes as they are (server/ids.py).

With secrets.token_urlsafe about one draw in 64 began with '-', and
`oriente play --resume TABLE TOKEN` or `oriente tournament start ID` took it
for an option. These draws never do; ids drawn before still parse."""

from __future__ import annotations

import re
from pathlib import Path

from oriente.cli.main import _take_resume, build_parser
from oriente.server.ids import ALPHABET, ID_LENGTH, TOKEN_LENGTH, new_id, new_token

SERVER = Path(__file__).resolve().parents[2] / "src" / "oriente" / "server"


def test_many_ids_and_tokens_never_begin_with_a_dash() -> None:
    # 20,000 draws each: with the old alphabet about 312 of each began with '-'.
    ids = [new_id() for _ in range(20_000)]
    tokens = [new_token() for _ in range(20_000)]
    for word, length in [*((i, ID_LENGTH) for i in ids), *((t, TOKEN_LENGTH) for t in tokens)]:
        assert len(word) == length and not word.startswith("-")
        assert set(word) <= set(ALPHABET), word
    assert len(set(ids)) == len(ids) and len(set(tokens)) == len(tokens)
    # Every symbol is used, first place included: the alphabet was not narrowed by accident.
    assert {i[0] for i in ids} == set(ALPHABET)
    assert new_token("o").startswith("o") and len(new_token("e")) == TOKEN_LENGTH + 1


def test_the_server_draws_every_public_id_and_token_from_that_alphabet() -> None:
    """No module of the server hands out a token_urlsafe draw (which can begin
    with '-'); the two left are secrets nobody types (a tournament's HMAC key,
    a dummy password hashed against timing)."""
    users = {str(p.relative_to(SERVER)): len(re.findall(r"token_urlsafe\(", p.read_text()))
             for p in SERVER.rglob("*.py") if p.name != "ids.py" and "token_urlsafe(" in p.read_text()}
    assert users == {"director/registry.py": 1, "accounts.py": 1}, users


def test_an_old_id_that_begins_with_a_dash_still_resumes() -> None:
    words = ["play", "--server", "ws://127.0.0.1:1", "--resume", "-Xy3_abcdefg", "-tokenAbc"]
    pair = _take_resume(words)
    args = build_parser().parse_args(words)
    assert pair == ["-Xy3_abcdefg", "-tokenAbc"] and args.server == "ws://127.0.0.1:1"
    # The tournament commands take an old id after '--' and an old token with '='.
    args = build_parser().parse_args(["tournament", "start-round", "--token=-tok", "--", "-abc"])
    assert args.tournament == "-abc" and args.token == "-tok"
