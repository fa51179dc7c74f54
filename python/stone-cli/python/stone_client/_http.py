"""Talking to an environment's server: its credentials (from the bundled ``stone``, which
keeps and refreshes the login), requests that carry the token to the environment's API
origin and nowhere else, https off loopback, and a file-like object over HTTP ranges.

Nothing here follows a redirect: a request goes to the URL it was built for, so the token
cannot be carried to another host (a storage host, a presigned URL) by a ``Location``.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import os
import threading
import time
import urllib.parse
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

from ._binary import run_json
from ._errors import StoneError, UnavailableError, error_for_status

__all__ = ["Endpoint", "endpoint", "Response", "RangeFile"]

USER_AGENT = "stone-client/0.1.0"
#: Largest error body read (a problem document).
MAX_PROBLEM = 64 << 10
#: Largest JSON answer read (metadata, SPARQL results: the server caps those at 32 MiB).
MAX_JSON = 64 << 20
TIMEOUT = 300.0


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


Origin = Tuple[str, str, int]


def origin_of(url: str) -> Origin:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return (scheme, (parts.hostname or "").lower(), port)


class Endpoint:
    """An environment's API: where requests go and the token they carry. The token is
    never shown (``repr``, ``str``, errors)."""

    def __init__(self, env: str, api: str, host: str, token: Optional[str], source: str, expires_at: Optional[int]) -> None:
        parts = urllib.parse.urlsplit(api)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname:
            raise StoneError(
                "client.invalid_api",
                f"the API URL of `{env}` is not an http(s) URL: {api}",
                hint=f"fix it with `stone env add {env} --api https://… --replace`",
            )
        if scheme == "http" and not _loopback(parts.hostname):
            raise StoneError(
                "client.insecure_url",
                f"the API of `{env}` is plain http on a host that is not loopback ({parts.hostname}): the token would cross the network unencrypted",
                hint=f"use https: `stone env add {env} --api https://… --replace`",
            )
        self.env = env
        self.api = api.rstrip("/")
        self.host = host
        self.source = source
        self.expires_at = expires_at
        self.origin = origin_of(self.api)
        self._token = token

    def __repr__(self) -> str:
        return f"Endpoint(env={self.env!r}, api={self.api!r}, token_from={self.source!r})"

    __str__ = __repr__

    def stale(self) -> bool:
        return self.expires_at is not None and self.expires_at - 60 <= time.time()

    def headers_for(self, url: str) -> Dict[str, str]:
        """The headers of a request to ``url``: the token only to the API's own origin."""
        headers = {"User-Agent": USER_AGENT}
        if self._token and origin_of(url) == self.origin:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    def url(self, path: str, query: Optional[Mapping[str, Optional[str]]] = None) -> str:
        url = self.api + path
        pairs = [(k, v) for k, v in (query or {}).items() if v is not None]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        return url


_endpoints: Dict[Tuple[str, ...], Endpoint] = {}
_endpoints_lock = threading.Lock()


def _key(env: str) -> Tuple[str, ...]:
    # What `stone credentials` reads besides the stored login: a notebook that sets
    # STONE_TOKEN or STONE_CONFIG later gets what they say.
    return (env, os.environ.get("STONE_TOKEN", ""), os.environ.get("STONE_CONFIG", ""))


def endpoint(env: str, *, renew: bool = False) -> Endpoint:
    """The endpoint of ``env``: its API and token, as ``stone credentials`` gives them
    (``STONE_TOKEN``, else the stored login refreshed, else none). Kept until the token
    is about to expire."""
    key = _key(env)
    with _endpoints_lock:
        known = _endpoints.get(key)
        if known is not None and not renew and not known.stale():
            return known
    document = run_json(["credentials", "--env", env], what="stone credentials")
    found = Endpoint(
        env=str(document.get("env", env)),
        api=str(document["api"]),
        host=str(document.get("host", "")),
        token=document.get("token"),
        source=str(document.get("source", "none")),
        expires_at=document.get("expires_at"),
    )
    with _endpoints_lock:
        _endpoints[key] = found
    return found


class Response:
    """An answer being read: status, headers, body (a stream)."""

    def __init__(self, connection: http.client.HTTPConnection, raw: http.client.HTTPResponse) -> None:
        self.connection = connection
        self.raw = raw
        self.status = raw.status

    def header(self, name: str) -> Optional[str]:
        return self.raw.getheader(name)

    def read(self, size: int = -1) -> bytes:
        return self.raw.read(size) if size >= 0 else self.raw.read()

    def readinto(self, buffer: Any) -> int:
        return self.raw.readinto(buffer)

    def json(self, limit: int = MAX_JSON) -> Any:
        body = self.raw.read(limit + 1)
        if len(body) > limit:
            raise StoneError("client.too_large", f"the answer is larger than {limit} bytes")
        return json.loads(body)

    def close(self) -> None:
        self.raw.close()


def _connection(url: str) -> http.client.HTTPConnection:
    scheme, host, port = origin_of(url)
    if scheme == "https":
        return http.client.HTTPSConnection(host, port, timeout=TIMEOUT)
    return http.client.HTTPConnection(host, port, timeout=TIMEOUT)


def _target(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def request(
    point: Endpoint,
    method: str,
    url: str,
    *,
    headers: Optional[Mapping[str, str]] = None,
    body: Optional[bytes] = None,
    connection: Optional[http.client.HTTPConnection] = None,
    what: str,
) -> Response:
    """Sends one request (no redirect followed) and returns the answer when it is 2xx;
    raises the :class:`StoneError` of the server's problem otherwise."""
    conn = connection or _connection(url)
    sent = point.headers_for(url)
    sent.update(headers or {})
    try:
        conn.request(method, _target(url), body=body, headers=sent)
        raw = conn.getresponse()
    except (OSError, http.client.HTTPException) as error:
        conn.close()
        raise UnavailableError(
            "server.unavailable",
            f"{what}: cannot reach {point.api} ({type(error).__name__}: {error})",
            hint="is the server running? Run the same call again",
        ) from None
    if 200 <= raw.status < 300:
        return Response(conn, raw)
    body_text = raw.read(MAX_PROBLEM)
    raw.close()
    code: Optional[str] = None
    message = f"{what}: HTTP {raw.status}"
    hint: Optional[str] = None
    try:
        problem = json.loads(body_text)
        if isinstance(problem, dict):
            code = problem.get("code") if isinstance(problem.get("code"), str) else None
            detail = problem.get("detail") or problem.get("title")
            if isinstance(detail, str) and detail:
                message = f"{what}: {detail}"
            if isinstance(problem.get("hint"), str):
                hint = problem["hint"]
    except ValueError:
        pass
    if raw.status == 401 and hint is None:
        hint = f"log in with `stone login --env {point.env}`, or set STONE_TOKEN"
    if 300 <= raw.status < 400:
        code = code or "client.redirect"
        message = f"{what}: the server answered a redirect (HTTP {raw.status}), which is not followed"
    raise error_for_status(raw.status, code, message, hint)


def call(point: Endpoint, method: str, url: str, *, what: str, **kwargs: Any) -> Response:
    """:func:`request`, once more with a renewed endpoint when the token was refused
    (an expired login refreshed by ``stone credentials``)."""
    try:
        return request(point, method, url, what=what, **kwargs)
    except StoneError as error:
        if error.http_status != 401 or point.source != "login":
            raise
    renewed = endpoint(point.env, renew=True)
    # The refused answer's connection may hold the rest of its body: a new one.
    kwargs.pop("connection", None)
    return request(renewed, method, url, what=what, **kwargs)


class RangeFile(io.RawIOBase):
    """A read-only, seekable file over HTTP ranges: each ``read`` is one ``Range``
    request, on one kept-alive connection. ``If-Range`` with the first answer's ``ETag``
    makes a content that changed meanwhile an error, never a mix of two contents."""

    def __init__(self, point: Endpoint, url: str, *, what: str) -> None:
        super().__init__()
        self._point = point
        self._url = url
        self._what = what
        self._lock = threading.Lock()
        self._conn = _connection(url)
        answer = call(point, "HEAD", url, what=what, connection=self._conn)
        answer.read()
        length = answer.header("Content-Length")
        if length is None:
            raise StoneError("client.protocol", f"{what}: the server did not say the size (no Content-Length)")
        self.size = int(length)
        self.etag = answer.header("ETag")
        self._position = 0
        self.requests = 1

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            position = offset
        elif whence == io.SEEK_CUR:
            position = self._position + offset
        elif whence == io.SEEK_END:
            position = self.size + offset
        else:
            raise ValueError(f"whence {whence}")
        if position < 0:
            raise ValueError("negative position")
        self._position = position
        return position

    def read(self, size: int = -1) -> bytes:
        with self._lock:
            start = self._position
            if size is None or size < 0:
                size = self.size - start
            size = min(size, self.size - start)
            if size <= 0:
                return b""
            headers = {"Range": f"bytes={start}-{start + size - 1}"}
            if self.etag:
                headers["If-Range"] = self.etag
            answer = self._get(headers)
            if answer.status != 206:
                answer.close()
                self._conn.close()
                raise StoneError(
                    "read.changed",
                    f"{self._what}: the content changed while it was read (a new push?)",
                    hint="read it again",
                )
            data = answer.read()
            if len(data) != size:
                raise UnavailableError(
                    "read.short",
                    f"{self._what}: {len(data)} bytes came for a range of {size}",
                )
            self._position = start + size
            self.requests += 1
            return data

    def _get(self, headers: Dict[str, str]) -> Response:
        try:
            return request(self._point, "GET", self._url, headers=headers, connection=self._conn, what=self._what)
        except UnavailableError:
            # A kept-alive connection the server closed meanwhile: once more, on a new one.
            pass
        except StoneError as error:
            # A login that expired during a long read: renewed once (`stone credentials`).
            if error.http_status != 401 or self._point.source != "login":
                raise
            self._point = endpoint(self._point.env, renew=True)
        self._conn.close()
        self._conn = _connection(self._url)
        return request(self._point, "GET", self._url, headers=headers, connection=self._conn, what=self._what)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        return self.read(-1)

    def close(self) -> None:
        if not self.closed:
            self._conn.close()
        super().close()

    def __repr__(self) -> str:
        return f"RangeFile({self._what}, size={self.size})"


def iter_body(answer: Response, chunk: int = 1 << 20) -> Iterator[bytes]:
    """The body of ``answer`` in chunks."""
    while True:
        data = answer.read(chunk)
        if not data:
            return
        yield data
