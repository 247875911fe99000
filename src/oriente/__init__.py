"""Oriente: the pure rules of each game, the table server that runs them,
the wire protocol (`oriente.protocol`), the clients and the `oriente`
command. The packages live under src/ (the src layout), so the checkout's
root never shadows the installed package."""

from .legacy import install as _install_legacy_names

_install_legacy_names()
