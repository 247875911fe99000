"""`oriente demo` for a newcomer: a primer (what the game is, how it is won)
before the story, and the story in order: the bots' deals for a fight are
proposed while its negotiation window is open, never after it closed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from oriente.cli.demo import primer
from oriente.games import registered


def _oriente(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oriente.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


def test_every_game_has_a_primer_that_says_how_it_is_won() -> None:
    for game in registered():
        text = primer(game)
        assert text.startswith(f"{game.capitalize()}, in a few lines."), game
        assert " win" in text and f"docs/rules{'' if game == 'oriente' else '-' + game}.md" in text
        assert max(len(line) for line in text.splitlines()) <= 80


def _late_fight_deals(record: dict[str, Any]) -> list[int]:
    """Deals proposed with a support promise for a fight whose window is not open."""
    window = None
    late = []
    for e in record["events"]:
        if e["type"] == "FightBegan":
            window = (e["attacker"], e["defender"])
        elif e["type"] == "NegotiationClosed":
            window = None
        elif e["type"] == "DealProposed":
            fights = {(p["attacker"], p["defender"]) for p in e["promises"] if p.get("kind") == "support"}
            late += [e["deal"] for fight in fights if fight != window]
    return late


def test_the_demo_primes_then_tells_each_fights_deals_inside_its_window(tmp_path: Path) -> None:
    run = _oriente("demo", "--seats", "5", "--seed", "3", "--record", "r.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Oriente, in a few lines.")
    assert run.stdout.index("highest score wins") < run.stdout.index("Season 1 begins")
    record = json.loads((tmp_path / "r.json").read_text())
    fight_deals = [e for e in record["events"] if e["type"] == "DealProposed"
                   and any(p.get("kind") == "support" for p in e["promises"])]
    assert fight_deals, "the bots bargained for support"
    # A bot decides on one frame and sends a moment later; the table may close the window
    # in that moment, so a rare offer still lands after it. Before, every one did (the
    # windows closed at once).
    late = _late_fight_deals(record)
    assert len(late) * 10 <= len(fight_deals), (late, len(fight_deals))
