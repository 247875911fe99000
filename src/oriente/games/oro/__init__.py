"""Oro, the island-and-bridges majority game: its pure rules (`rules`,
docs/rules-oro.md), its port (`port`), its reference bots (`bots`) and its
narrator (`narrate`)."""

# Old module names -> new ones, importable for one release (oriente.legacy).
LEGACY = {
    "oriente.server.oro": "oriente.games.oro.rules",
    "oriente.server.policies.oro": "oriente.games.oro.bots",
    "oriente.server.games.oro": "oriente.games.oro.port",
    "oriente.clients.narrate_oro": "oriente.games.oro.narrate",
    "oriente.clients.terminal.oro": "oriente.clients.terminal.games.oro",
}
