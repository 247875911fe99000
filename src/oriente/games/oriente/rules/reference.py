"""The card reference: what every card is, in the three rulebook languages.

Clients draw cards from this (rank, value, name, ability) instead of
copying the rules into their own code; the table server publishes it as
`/data/cards.json`. Names follow the printed cards and rulebooks: the
Japanese name (with its long vowels in the German and French editions)
and the rulebook's translation as a title ("Sōryo, der Priester").
Ability texts are short summaries of R5; `rule` points at the full rule.

Pure data, no I/O: `reference()` is the same for every call.
"""

from __future__ import annotations

from typing import Any

from .cards import ALL_CARDS, KIND, RANK, VALUE, Kind

LANGUAGES = ("en", "de", "fr")

_KIND_IDS = {
    Kind.SHOGUN: "shogun", Kind.SORYO: "soryo", Kind.MAHO_TSUKAI: "maho", Kind.DAIMYO: "daimyo",
    Kind.SAMURAI: "samurai", Kind.AKINDO: "akindo", Kind.NOFU: "nofu", Kind.NINJA: "ninja",
    Kind.GEISHA: "geisha", Kind.TREASURE: "treasure",
}

# name, title (the rulebook's translation) per language
_NAMES: dict[Kind, dict[str, tuple[str, str]]] = {
    Kind.SHOGUN: {"en": ("Shogun", "the lord"), "de": ("Shōgun", "der Herr der Provinz"),
                  "fr": ("Shōgun", "le seigneur")},
    Kind.SORYO: {"en": ("Soryo", "priest"), "de": ("Sōryo", "Priester"), "fr": ("Sōryō", "Prêtre")},
    Kind.MAHO_TSUKAI: {"en": ("Maho-Tsukai", "sorcerer"), "de": ("Mahō-Tsukai", "Zauberer"),
                       "fr": ("Mahō-Tsukai", "Mage")},
    Kind.DAIMYO: {"en": ("Daimyo", "noble"), "de": ("Daimyō", "Edelmann"), "fr": ("Daimyō", "Noble")},
    Kind.SAMURAI: {"en": ("Samurai", "warrior"), "de": ("Samurai", "Krieger"), "fr": ("Samurai", "Samouraï")},
    Kind.AKINDO: {"en": ("Akindo", "merchant"), "de": ("Akindo", "Händler"), "fr": ("Akindo", "Marchand")},
    Kind.NOFU: {"en": ("Nofu", "peasant"), "de": ("Nōfu", "Bauer"), "fr": ("Nōfu", "Paysan")},
    Kind.NINJA: {"en": ("Ninja", "assassin"), "de": ("Ninja", "Attentäter"), "fr": ("Ninja", "assassin")},
    Kind.GEISHA: {"en": ("Geisha", "ends the game"), "de": ("Geisha", "beendet das Spiel"),
                  "fr": ("Geisha", "termine la partie")},
    Kind.TREASURE: {"en": ("Treasure", "score card"), "de": ("Schatz", "Siegpunkte-Karte"),
                    "fr": ("Trésor", "carte de points")},
}

# (action kind or None for a passive ability, rule, {lang: (name, text)})
_ABILITIES: dict[Kind, list[tuple[str | None, str, dict[str, tuple[str, str]]]]] = {
    Kind.SHOGUN: [(None, "R5.1", {
        "en": ("Invincible defence", "When attacked, the Shogun always wins the fight. "
               "It does not protect against assassination, nor when it attacks or supports."),
        "de": ("Unüberwindliche Verteidigung", "Wird der Shōgun angegriffen, gewinnt er immer. "
               "Er schützt nicht vor dem Attentat, nicht beim Angreifen und nicht beim Unterstützen."),
        "fr": ("Défense invincible", "Attaqué directement, le Shōgun gagne toujours. Il ne protège pas "
               "de l'élimination, ni quand il attaque ou soutient."),
    })],
    Kind.SORYO: [("blessing", "R5.2", {
        "en": ("Blessing", "Take the bonus pile onto your score pile, if nobody has won it this season."),
        "de": ("Göttlicher Segen", "Nimm den Bonusstapel zu deinen Siegpunkte-Karten, "
               "wenn ihn in dieser Jahreszeit noch niemand erhalten hat."),
        "fr": ("Bénédiction", "Prends les cartes récompense si personne ne les a encore gagnées cette saison."),
    })],
    Kind.MAHO_TSUKAI: [("transformation", "R5.3", {
        "en": ("Transformation", "Your Maho-Tsukai goes under the deck; look at every other inhabitant, "
               "keep one face down, and deal the rest (with one unseen card) back. "
               "Not while another Maho-Tsukai lies face up."),
        "de": ("Verwandlung", "Dein Mahō-Tsukai kommt unter den Stapel; sieh dir alle anderen Einwohner an, "
               "behalte einen verdeckt und verteile die übrigen (mit einer ungesehenen Karte) neu. "
               "Nicht, wenn ein anderer Mahō-Tsukai offen ausliegt."),
        "fr": ("Transformation", "Ton Mahō-Tsukai va sous le paquet ; regarde tous les autres habitants, "
               "garde-en un face cachée et redistribue les autres (avec une carte inconnue). "
               "Pas si un autre Mahō-Tsukai est dévoilé."),
    })],
    Kind.DAIMYO: [("income", "R5.4", {
        "en": ("Income", "Draw the top card of the deck face up onto your score pile."),
        "de": ("Einnahmen", "Lege die oberste Karte des Stapels offen zu deinen Siegpunkte-Karten."),
        "fr": ("Rente", "Ajoute la carte du dessus du paquet à tes points."),
    }), ("succession", "R5.4", {
        "en": ("Succession", "If another seat shows the Shogun (as inhabitant or in its score pile), "
               "swap your Daimyo with it."),
        "de": ("Nachfolge", "Liegt der Shōgun bei einem Mitspieler offen aus oder in dessen Siegpunkte-Karten, "
               "tausche deinen Daimyō gegen ihn."),
        "fr": ("Succession", "Si le Shōgun est dévoilé chez un autre joueur (en jeu ou parmi ses points), "
               "échange-le contre ton Daimyō."),
    })],
    Kind.SAMURAI: [(None, "R5.5", {
        "en": ("Reinforcement", "In every fight it takes part in, turn the top card of the deck and add its "
               "value to your side. The loser takes a turned card as its new inhabitant."),
        "de": ("Verstärkung", "In jedem Kampf, an dem er teilnimmt, deckt er die oberste Karte auf und zählt "
               "ihren Wert hinzu. Der Verlierer nimmt eine aufgedeckte Karte als neuen Einwohner."),
        "fr": ("Renfort", "À chaque combat auquel il participe, retourne la carte du dessus du paquet et "
               "ajoute sa valeur à son camp. Le perdant prend une carte retournée comme nouvel habitant."),
    })],
    Kind.AKINDO: [("credit", "R5.6", {
        "en": ("Credit", "Take every Nofu from the named seat's score pile. Not against a face-up Akindo."),
        "de": ("Kredit", "Nimm alle Nōfu aus den Siegpunkte-Karten des benannten Mitspielers. "
               "Nicht gegen einen offenen Akindo."),
        "fr": ("Crédit", "Prends tous les Nōfu parmi les points du joueur désigné. "
               "Pas contre un Akindo dévoilé."),
    }), ("trade", "R5.6", {
        "en": ("Trade", "Give the named seat a score card of your choice, then draw one of its score cards "
               "at random. Not against a face-up Akindo."),
        "de": ("Handel", "Gib dem benannten Mitspieler eine Siegpunkte-Karte deiner Wahl und ziehe dann "
               "zufällig eine seiner Karten. Nicht gegen einen offenen Akindo."),
        "fr": ("Commerce", "Donne au joueur désigné une carte de tes points, puis tire une de ses cartes "
               "au hasard. Pas contre un Akindo dévoilé."),
    })],
    Kind.NOFU: [("incite", "R5.7", {
        "en": ("Incite", "Move a worker: from the supply into the hut, or from the hut onto the square "
               "(4–7 seats: straight onto the square)."),
        "de": ("Aufwiegelung", "Bewege einen Arbeiter: in die Hütte, oder aus der Hütte auf den Dorfplatz "
               "(4–7 Spieler: direkt auf den Dorfplatz)."),
        "fr": ("Recrutement", "Déplace un ouvrier : dans la hutte, ou de la hutte sur la place "
               "(4 à 7 joueurs : directement sur la place)."),
    }), ("revolution", "R7", {
        "en": ("Revolution", "Every Nofu may join. Strength = workers on the square + revolting Nofu; "
               "every inhabitant worth at most that gives half its score cards to the revolution."),
        "de": ("Revolution", "Jeder Nōfu darf sich anschließen. Stärke = Arbeiter auf dem Dorfplatz + "
               "beteiligte Nōfu; jeder Einwohner bis zu dieser Stärke gibt die Hälfte seiner Karten ab."),
        "fr": ("Révolution", "Chaque Nōfu peut se joindre. Force = ouvriers sur la place + Nōfu révoltés ; "
               "chaque habitant de valeur inférieure ou égale cède la moitié de ses points."),
    })],
    Kind.NINJA: [("assassination", "R5.8", {
        "en": ("Assassination", "Take the named seat's inhabitant onto your score pile; it draws a new one. "
               "Not against a face-up Ninja. All three Ninjas in one pile win the game."),
        "de": ("Attentat", "Lege den Einwohner des benannten Mitspielers zu deinen Siegpunkte-Karten; er zieht "
               "einen neuen. Nicht gegen einen offenen Ninja. Alle drei Ninjas gewinnen das Spiel."),
        "fr": ("Élimination", "Prends l'habitant du joueur désigné parmi tes points ; il en pioche un autre. "
               "Pas contre un Ninja dévoilé. Les trois Ninjas réunis gagnent la partie."),
    })],
    Kind.GEISHA: [(None, "R9.2", {
        "en": ("The end", "When the Geisha is drawn, the game ends at once."),
        "de": ("Das Ende", "Wird die Geisha gezogen, endet das Spiel sofort."),
        "fr": ("La fin", "Dès que la Geisha est piochée, la partie s'arrête."),
    })],
    Kind.TREASURE: [(None, "R1.2", {
        "en": ("Treasure", "A score card worth its printed value; every seat starts with one."),
        "de": ("Schatz", "Eine Siegpunkte-Karte mit ihrem aufgedruckten Wert; jeder beginnt mit einer."),
        "fr": ("Trésor", "Une carte de points de sa valeur imprimée ; chacun commence avec une."),
    })],
}

# Every action a seat may announce (R5), by name, per language.
_ACTIONS: dict[str, dict[str, str]] = {
    "attack": {"en": "Attack", "de": "Angriff", "fr": "Attaque"},
    **{action: {lang: names[lang][0] for lang in LANGUAGES}
       for abilities in _ABILITIES.values() for action, _rule, names in abilities if action is not None},
}


def _kind_entry(kind: Kind) -> dict[str, Any]:
    cards = [c for c in ALL_CARDS if KIND[c] is kind]
    rank = RANK[cards[0]]
    return {
        "kind": _KIND_IDS[kind],
        "rank": rank if rank >= 0 else None,
        "value": None if kind in (Kind.GEISHA, Kind.TREASURE) else VALUE[cards[0]],
        "count": len(cards),
        "cards": cards,
        "name": {lang: _NAMES[kind][lang][0] for lang in LANGUAGES},
        "title": {lang: _NAMES[kind][lang][1] for lang in LANGUAGES},
        "abilities": [
            {"action": action, "rule": rule,
             "name": {lang: texts[lang][0] for lang in LANGUAGES},
             "text": {lang: texts[lang][1] for lang in LANGUAGES}}
            for action, rule, texts in _ABILITIES[kind]
        ],
    }


def reference() -> dict[str, Any]:
    """Every card and kind, with names and ability texts per language."""
    order = [Kind.SHOGUN, Kind.SORYO, Kind.MAHO_TSUKAI, Kind.DAIMYO, Kind.SAMURAI, Kind.AKINDO,
             Kind.NOFU, Kind.NINJA, Kind.GEISHA, Kind.TREASURE]
    return {
        "game": "oriente",
        "languages": list(LANGUAGES),
        "kinds": [_kind_entry(k) for k in order],
        "cards": [{"id": c, "kind": _KIND_IDS[KIND[c]], "rank": RANK[c] if RANK[c] >= 0 else None,
                   "value": VALUE[c] if KIND[c] is not Kind.GEISHA else None} for c in ALL_CARDS],
        "actions": _ACTIONS,
    }


def card_name_in(card: int, lang: str) -> str:
    """A card's printed name in `lang`: 'Sōryo', 'Schatz 3'."""
    kind = KIND[card]
    name = _NAMES[kind].get(lang, _NAMES[kind]["en"])[0]
    return f"{name} {VALUE[card]}" if kind is Kind.TREASURE else name


def kind_id(card: int) -> str:
    """The kind of a card as the reference names it: 'akindo', 'treasure'."""
    return _KIND_IDS[KIND[card]]
