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

The websocket handshake checks `Origin` (`origin_allowed`): a page on
another site must not drive a player's seat through the player's browser.
Handshakes without `Origin` come from programs (bots, the terminal client),
which hold their own tokens and are allowed.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

log = logging.getLogger("oriente.web")

# A provider of JSON data that depends on nothing but the code (the cards of
# a game): called once, at start-up.
StaticData = Callable[[], Any]
# A provider of JSON data for one request: (path tail, query) -> data, or
# None for 404 (a replay of a finished table).
DynamicData = Callable[[str, Mapping[str, str]], Awaitable[Any]]

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
    """One response body, ready to send: plain and gzip forms, its ETag."""

    body: bytes
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


def origin_allowed(headers: Headers, allowed: Iterable[str] = ()) -> bool:
    """May a websocket handshake with these headers proceed? No `Origin`:
    a program, not a page; yes. Otherwise the page must come from this very
    host (the `Host` it connected to), or from an origin the operator
    allowed (`--allow-origin`). Browsers always send `Origin` on websocket
    handshakes and scripts cannot forge it."""
    origin = headers.get("Origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/")
    if origin in {o.rstrip("/") for o in allowed}:
        return True
    host = headers.get("Host")
    if host is None or not _HOST.match(host):
        return False
    return origin.lower() in (f"http://{host}".lower(), f"https://{host}".lower())


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
        if "/" not in self.assets:
            log.warning("no index.html under %s: the web client is not installed", dict(mounts))

    @property
    def has_page(self) -> bool:
        return "/" in self.assets

    async def respond(self, request: Request) -> Response:
        path, _, query = request.path.partition("?")
        path = unquote(path)
        host = request.headers.get("Host")
        asset = self.assets.get(path)
        if asset is None:
            for prefix, provider in self.dynamic.items():
                if path.startswith(prefix):
                    args = {k: v[-1] for k, v in parse_qs(query).items()}
                    data = await provider(path[len(prefix):], args)
                    if data is not None:
                        asset = Asset.of(_json(data), _TYPES[".json"])
                        return self._send(asset, request, host, cache="no-store")
                    break
            return _plain(404, "Not Found", "Nothing here. The game is at /.\n", host)
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
        if asset.gzipped is not None and "gzip" in accept:
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
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


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _plain(status: int, reason: str, text: str, host: str | None) -> Response:
    body = text.encode()
    headers = Headers(security_headers(host))
    headers["Content-Type"] = "text/plain; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)
