"""Fair dealing of the cards, shared by the server and everyone who checks it.

`dealing` is how a table's cards are chosen and committed to before play
(docs/table.md T7); `verify` checks a finished game's record against that
commitment. The server draws the cards with them and the clients (the SDK's
`verify_record`, `oriente verify`) check with the very same code, so both
live here, outside the server: a client that verifies imports no part of
the server. Pure: no I/O, no clock; randomness only where `dealing` draws
secrets.
"""
