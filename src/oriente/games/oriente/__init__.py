"""Oriente, the negotiation card game: its pure rules (`rules`, docs/rules.md),
its port (`port`), its reference bots (`bots`) and its story (`story`)."""

# Old module names -> new ones, importable for one release (oriente.legacy).
LEGACY = {
    "oriente.server.rules": "oriente.games.oriente.rules",
    "oriente.server.policies": "oriente.games.oriente.bots",
    "oriente.server.games.oriente": "oriente.games.oriente.port",
    "oriente.clients.story": "oriente.games.oriente.story",
}
