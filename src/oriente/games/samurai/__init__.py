"""Samurai: its pure rules (`rules`, docs/rules-samurai.md), its port
(`port`), its reference bots (`bots`) and its narrator (`narrate`)."""

# Old module names -> new ones, importable for one release (oriente.legacy).
LEGACY = {
    "oriente.server.samurai": "oriente.games.samurai.rules",
    "oriente.server.policies.samurai": "oriente.games.samurai.bots",
    "oriente.server.games.samurai": "oriente.games.samurai.port",
    "oriente.clients.narrate_samurai": "oriente.games.samurai.narrate",
    "oriente.clients.terminal.samurai": "oriente.clients.terminal.games.samurai",
}
