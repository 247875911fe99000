"""Plain HTTP on the websocket's port (PROTOCOL.md 13; the transport
answers `/healthz` itself): the tournaments' exports, the accounts' reads, and the web client's files
and data (`server/web.py`). What the server makes for a request costs its
client address (server/budget.py); its files cost nothing."""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import parse_qs, unquote

from websockets.http11 import Request, Response
from websockets.trio.server import ServerConnection

from ..protocol import messages as M
from .accounts import AccountError
from .budget import AddressBudget
from .director import Director
from .emails import Emails
from .lobby import Lobby
from .query import MAX_DIGITS, whole_number
from .web import HttpRefusal, WebSite, download, json_response, plain_text, refused


class Routes:
    """The answers to plain HTTP requests (those without `Upgrade`)."""

    def __init__(self, lobby: Lobby, *, director: Director | None = None, web: WebSite | None = None,
                 http_budget: AddressBudget | None = None, emails: Emails | None = None) -> None:
        self.lobby = lobby
        self.emails = emails
        self.director = director
        self.web = web
        self.http_budget = http_budget if http_budget is not None else AddressBudget()

    async def respond(self, connection: ServerConnection, request: Request, address: str) -> Response:
        """The answer to `request` from a client counted under `address`."""
        path = request.path.split("?", 1)[0]
        host = request.headers.get("Host")
        # What the server makes for a request (exports, the accounts'
        # reads, replays) costs its address; its files, kept ready in
        # memory, cost nothing, so a page load behind a shared address
        # (a school, a club's tournament room) is never held.
        if self._made(path):
            wait = await self.http_budget.spend(address)
            if wait is not None:
                return refused(HttpRefusal(429, f"this address asked for more than the server makes for one "
                                                f"address ({self.http_budget.rate:g} requests a second, bursts of "
                                                f"{self.http_budget.burst:g})", max(1, math.ceil(wait))), host)
        if path == "/metrics":
            return plain_text(404, "Not Found", "The metrics are served on their own port "
                                                "(oriente serve --metrics-port), not on the game's.\n", host)
        if path.startswith("/tournament/") and self.director is not None:
            found = await self.director.export(unquote(path.removeprefix("/tournament/")))
            if found is not None:
                return download(*found, host)
        if path in ("/email/confirm", "/email/unsubscribe"):
            return await self._email(path, request.path.partition("?")[2], host)
        if path in ("/leaderboard", "/leaderboard.json") or path.startswith("/account/"):
            return await self._accounts(path, request.path.partition("?")[2], host)
        if self.web is not None:
            return await self.web.respond(request, address)
        return connection.respond(426, "This is the Oriente websocket endpoint "
                                       f"(subprotocol {M.SUBPROTOCOL}); see /healthz.\n")

    def _made(self, path: str) -> bool:
        """Is `path` answered with something made for the request (not a file)?"""
        return (path.startswith(("/tournament/", "/account/", "/email/"))
                or path in ("/leaderboard", "/leaderboard.json")
                or (self.web is not None and self.web.is_dynamic(path)))

    async def _accounts(self, path: str, query: str, host: str | None) -> Response:
        """GET /leaderboard?game=G&limit=N and /account/NAME: JSON reads of
        the accounts (PROTOCOL.md 13)."""
        accounts = self.lobby.accounts
        if accounts is None:
            return plain_text(404, "Not Found", "This server keeps no accounts.\n", host)
        args = {k: v[-1] for k, v in parse_qs(query).items()}
        try:
            if path.startswith("/account/"):
                data: Any = await accounts.profile(unquote(path[len("/account/"):]), sorted(self.lobby.ports))
            else:
                game = args.get("game", M.DEFAULT_GAME)
                if game not in self.lobby.ports:
                    return plain_text(404, "Not Found", f"This server does not play {game!r}.\n", host)
                limit = whole_number(args.get("limit", "50"))
                if limit is None:
                    return plain_text(400, "Bad Request",
                                      f"limit is a whole number of at most {MAX_DIGITS} digits.\n", host)
                data = {"game": game, "leaderboard": await accounts.leaderboard(game, limit)}
        except AccountError as exc:
            return plain_text(404, "Not Found", exc.message + "\n", host)
        return json_response(200, "OK", data, host)

    async def _email(self, path: str, query: str, host: str | None) -> Response:
        """GET /email/confirm?token=T and /email/unsubscribe?token=T: the
        links the server mails (docs/accounts.md, "E-mail")."""
        if self.emails is None:
            return plain_text(404, "Not Found", "This server sends no e-mail.\n", host)
        token = parse_qs(query).get("token", [""])[-1]
        if path == "/email/confirm":
            row = await self.emails.confirm(token)
            if row is None:
                return plain_text(404, "Not Found", "This confirmation link is unknown or was used already.\n",
                                  host)
            return plain_text(200, "OK", f"Confirmed: {row.address} will be told when a turn-based table "
                                         "awaits you. Every such mail has a link to stop them.\n", host)
        row = await self.emails.unsubscribe(token)
        if row is None:
            return plain_text(404, "Not Found", "This unsubscribe link is unknown.\n", host)
        return plain_text(200, "OK", f"Unsubscribed: {row.address} will get no more mails from this server. "
                                     "To get them again, give your address in your account again.\n", host)
