"""The web client on the websocket's own port: static files, data routes,
and the rules a browser needs to be safe.

Game-agnostic. The files are read once at start-up (they ship inside the
Python package) and kept in memory with their gzip form and an ETag, so a
request costs a dictionary look-up: the websocket library answers plain
HTTP requests itself during its opening handshake, one request per
connection, and nothing here may block the server's loop for long.

Why each header is there:

- `Content-Security-Policy`: scripts and styles only from this origin,
  no inline script, no `eval`, connections only back to this host; a name
  or chat line that slipped past the page's escaping still could not run.
- `X-Content-Type-Options`, `Referrer-Policy`, `frame-ancestors`/
  `X-Frame-Options`, `Cross-Origin-*`: no sniffing, no leaking table ids in
  referrers, no framing (click-jacking a seat), no cross-origin embedding.

The websocket handshake checks `Origin` (server/origins.py): a page on
another site must not drive a player's seat through the player's browser.

A request for something made for it (a dynamic provider's) costs its
client address a token of its HTTP budget (server/budget.py; the transport
takes it; files cost nothing); a provider may refuse with its own
`HttpRefusal` (a replay the server may not build now).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

import trio
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..games.kit.port import GamePort
from ..games.kit.port import words_dir as words_dir  # where a game keeps its words, served below

log = logging.getLogger("oriente.web")

# A provider of JSON data that depends on nothing but the code (the cards of
# a game): called once, at start-up.
StaticData = Callable[[], Any]
# A provider for one request: (path tail, query, client address) -> JSON
# data, a ready `Asset`, an `HttpRefusal`, or None for 404 (a replay of a
# finished table).
DynamicData = Callable[[str, Mapping[str, str], str], Awaitable[Any]]

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}
_COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest")
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


@dataclass(frozen=True, slots=True)
class Asset:
    """One response body, ready to send: plain and gzip forms, its ETag.
    `body` None: kept gzipped only, unpacked for a client that does not
    take gzip."""

    body: bytes | None
    gzipped: bytes | None
    etag: str
    content_type: str

    @classmethod
    def of(cls, body: bytes, content_type: str, compressible: bool = True) -> Asset:
        packed = gzip.compress(body, 9, mtime=0) if compressible and len(body) > 256 else None
        if packed is not None and len(packed) >= len(body):
            packed = None
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        return cls(body=body, gzipped=packed, etag=etag, content_type=content_type)


@dataclass(frozen=True, slots=True)
class HttpRefusal:
    """A request the server will not serve now: its status (429, 503), why,
    and the seconds after which it may be asked again (`Retry-After`)."""

    status: int
    reason: str
    retry_after: int


def security_headers(host: str | None) -> list[tuple[str, str]]:
    """The headers every page and file carries (see the module docstring)."""
    connect = "'self'"
    if host is not None and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    csp = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
           f"font-src 'self'; connect-src {connect}; manifest-src 'self'; media-src 'self'; "
           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return [
        ("Content-Security-Policy", csp),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"),
    ]


def load_tree(root: Path, prefix: str = "/") -> dict[str, Asset]:
    """Every file under `root`, keyed by its URL path under `prefix`."""
    assets: dict[str, Asset] = {}
    if not root.is_dir():
        return assets
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        rel = path.relative_to(root).as_posix()
        suffix = path.suffix.lower()
        ctype = _TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        assets[prefix + rel] = Asset.of(path.read_bytes(), ctype, suffix in _COMPRESSIBLE)
    return assets


_LANG_FILE = re.compile(r"^[a-z]{2,3}\.json$")


def game_words(ports: Mapping[str, GamePort]) -> dict[str, StaticData]:
    """`/i18n/GAME/LANG.json` -> a provider of that catalogue, for every
    game whose words folder holds one (read once, at start-up)."""
    found: dict[str, StaticData] = {}
    for name, port in ports.items():
        folder = words_dir(port)
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if _LANG_FILE.match(path.name):
                found[f"/i18n/{name}/{path.name}"] = functools.partial(_read_json, path)
    return found


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


class WebSite:
    """Answers the plain HTTP requests of the web client.

    `mounts` maps URL prefixes ("/", "/i18n/") to directories; "/" serves
    `index.html`. `data` maps paths to start-up providers of JSON
    ("/data/cards.json"); `dynamic` maps path prefixes to async providers
    ("/data/replay/"). Unknown paths get 404."""

    def __init__(self, mounts: Mapping[str, Path], *, data: Mapping[str, StaticData] | None = None,
                 dynamic: Mapping[str, DynamicData] | None = None) -> None:
        self.assets: dict[str, Asset] = {}
        for prefix, root in mounts.items():
            self.assets.update(load_tree(Path(root), prefix if prefix.endswith("/") else prefix + "/"))
        for path, provider in (data or {}).items():
            self.assets[path] = Asset.of(_json(provider()), _TYPES[".json"])
        if "/index.html" in self.assets:
            self.assets["/"] = self.assets["/index.html"]
        self.dynamic = dict(dynamic or {})
        self._unpackers = trio.CapacityLimiter(2)
        if "/" not in self.assets:
            log.warning("no index.html under %s: the web client is not installed", dict(mounts))

    def is_dynamic(self, path: str) -> bool:
        """Is `path` made for each request (a provider's), not a file?"""
        path = unquote(path)
        return path not in self.assets and any(path.startswith(prefix) for prefix in self.dynamic)

    @property
    def has_page(self) -> bool:
        return "/" in self.assets

    async def respond(self, request: Request, address: str = "") -> Response:
        """The answer to a plain GET from a client at `address`."""
        path, _, query = request.path.partition("?")
        path = unquote(path)
        host = request.headers.get("Host")
        asset = self.assets.get(path)
        if asset is None:
            for prefix, provider in self.dynamic.items():
                if path.startswith(prefix):
                    args = {k: v[-1] for k, v in parse_qs(query).items()}
                    data = await provider(path[len(prefix):], args, address)
                    if isinstance(data, HttpRefusal):
                        return refused(data, host)
                    if isinstance(data, Asset):
                        return await self._send_packed(data, request, host)
                    if data is not None:
                        asset = Asset.of(_json(data), _TYPES[".json"])
                        return self._send(asset, request, host, cache="no-store")
                    break
            return _plain(404, "Not Found", "Nothing here. The game is at /.\n", host)
        return self._send(asset, request, host)

    async def _send_packed(self, asset: Asset, request: Request, host: str | None) -> Response:
        """An asset kept gzipped only: unpacked, off this thread, for a
        client that does not take gzip (zlib lets other threads run meanwhile)."""
        headers = request.headers
        if (asset.body is None and asset.gzipped is not None and "gzip" not in headers.get("Accept-Encoding", "")
                and asset.etag not in headers.get("If-None-Match", "")):
            body = await trio.to_thread.run_sync(gzip.decompress, asset.gzipped, limiter=self._unpackers)
            asset = Asset(body=body, gzipped=None, etag=asset.etag, content_type=asset.content_type)
        return self._send(asset, request, host)

    def _send(self, asset: Asset, request: Request, host: str | None, cache: str = "no-cache") -> Response:
        # "no-cache" means "revalidate": a reload costs a 304 per file, and a
        # new release is seen at once (the file names carry no version).
        headers = Headers(security_headers(host))
        headers["Cache-Control"] = cache
        headers["ETag"] = asset.etag
        headers["Vary"] = "Accept-Encoding"
        headers["Connection"] = "close"
        if asset.etag in request.headers.get("If-None-Match", ""):
            return Response(304, "Not Modified", headers, b"")
        body = asset.body
        accept = request.headers.get("Accept-Encoding", "")
        if asset.gzipped is not None and ("gzip" in accept or body is None):
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
        assert body is not None
        headers["Content-Type"] = asset.content_type
        headers["Content-Length"] = str(len(body))
        return Response(200, "OK", headers, body)


def download(body: bytes, content_type: str, host: str | None) -> Response:
    """A generated file (an export), sent whole and never cached."""
    headers = Headers(security_headers(host))
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["Connection"] = "close"
    return Response(200, "OK", headers, body)


def refused(refusal: HttpRefusal, host: str | None) -> Response:
    """429 or 503 with `Retry-After`: not now, and when to ask again."""
    reasons = {429: "Too Many Requests", 503: "Service Unavailable"}
    response = _plain(refusal.status, reasons.get(refusal.status, "Refused"),
                      f"{refusal.reason}. Retry after {refusal.retry_after} s.\n", host)
    response.headers["Retry-After"] = str(refusal.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


def json_response(status: int, reason: str, data: Any, host: str | None) -> Response:
    """JSON generated for one request (the accounts' reads), never cached."""
    body = json.dumps(data, ensure_ascii=False, sort_keys=True).encode() + b"\n"
    headers = Headers(security_headers(host))
    headers["Content-Type"] = "application/json; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)


def plain_text(status: int, reason: str, text: str, host: str | None) -> Response:
    """A short text answer (a refusal, a hint) with the security headers."""
    return _plain(status, reason, text, host)


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _plain(status: int, reason: str, text: str, host: str | None) -> Response:
    body = text.encode()
    headers = Headers(security_headers(host))
    headers["Content-Type"] = "text/plain; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)
