"""HTTP with the standard library: one request, its retries with backoff, and the answer's JSON."""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any

from ._errors import RETRYABLE_STATUSES, AvatarVideoError
from ._version import __version__

USER_AGENT = f"avatar-video-python/{__version__}"

#: A Retry-After longer than this (an hourly quota) is handed to the caller instead of being slept through.
MAX_RETRY_AFTER = 60.0
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 8.0


def backoff(attempt: int) -> float:
    """Exponential backoff with jitter: 0.5 s, 1 s, 2 s … (at most 8 s), each scaled by a random 0.5 to 1."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt) * (0.5 + random.random() / 2)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """The API never redirects; following one would send the key to wherever it points."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass(frozen=True)
class Answer:
    status: int
    #: Read case-insensitively: ``answer.headers.get("x-request-id")``.
    headers: Message
    data: Any

    @property
    def request_id(self) -> str | None:
        return self.headers.get("X-Request-ID")


@dataclass(frozen=True)
class Settings:
    base_url: str
    max_retries: int
    timeout: float


def _repeatable(method: str, path: str, body: Mapping[str, Any] | None) -> bool:
    """Whether repeating cannot do the work twice: reads, calls that create nothing, videos with a retry key."""
    if method in ("GET", "HEAD") or path in ("/v1/open/avatar-checks", "/v1/console/session-tokens"):
        return True
    return path == "/v1/open/videos" and isinstance((body or {}).get("requestId"), str)


class Transport:
    """Sends requests with the App's headers; the key lives only in this object's header map, never in a repr."""

    def __init__(self, settings: Settings, app_id: str, api_key: str) -> None:
        self.settings = settings
        self._headers = {
            "X-App-ID": app_id,
            "X-API-Key": api_key,
            "User-Agent": USER_AGENT,
            "Accept": "application/json",
        }
        self._opener = urllib.request.build_opener(_NoRedirects)

    def __repr__(self) -> str:
        return f"Transport(base_url={self.settings.base_url!r})"

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
    ) -> Answer:
        """The 2xx answer of one call, after retries; AvatarVideoError otherwise.

        Retries 429 always (refused before any work); 408, 500, 502, 503, 504, lost connections and timeouts only
        when repeating cannot create twice. Never 409. Waits Retry-After when given (up to a minute), else backs off.
        """
        timeout = self.settings.timeout if timeout is None else timeout
        retries = self.settings.max_retries if max_retries is None else max_retries
        pairs = {k: v for k, v in (query or {}).items() if v is not None}
        url = self.settings.base_url + path + (f"?{urllib.parse.urlencode(pairs, doseq=True)}" if pairs else "")
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self._headers, **({"Content-Type": "application/json"} if data is not None else {}))
        repeatable = _repeatable(method, path, body)
        attempt = 0
        while True:
            last = attempt >= retries
            try:
                return self._send(urllib.request.Request(url, data=data, headers=headers, method=method), timeout)
            except AvatarVideoError as error:
                if error.status is None:
                    wait = backoff(attempt)
                    retry = repeatable
                else:
                    wait = backoff(attempt) if error.retry_after is None else error.retry_after
                    retry = error.status == 429 or (repeatable and error.status in RETRYABLE_STATUSES)
                if last or not retry or wait > MAX_RETRY_AFTER:
                    raise
            time.sleep(wait)
            attempt += 1

    def _send(self, request: urllib.request.Request, timeout: float) -> Answer:
        """One attempt; a non-2xx answer, a lost connection or a timeout as AvatarVideoError."""
        origin = self.settings.base_url
        try:
            with self._opener.open(request, timeout=timeout) as response:
                raw = response.read()
                headers = response.headers
                status = response.status
        except urllib.error.HTTPError as answer:
            with answer:
                raise AvatarVideoError.from_answer(answer.code, answer.headers, answer.read()) from None
        except (TimeoutError, socket.timeout) as cause:
            raise AvatarVideoError(f"no answer within {timeout} s", code="timeout") from cause
        except urllib.error.URLError as cause:
            if isinstance(cause.reason, (TimeoutError, socket.timeout)):
                raise AvatarVideoError(f"no answer within {timeout} s", code="timeout") from cause
            raise AvatarVideoError(f"could not reach {origin} ({cause.reason})", code="connection_error") from cause
        except (ConnectionError, http.client.HTTPException, OSError) as cause:
            raise AvatarVideoError(f"could not reach {origin} ({cause!r})", code="connection_error") from cause
        try:
            return Answer(status, headers, json.loads(raw) if raw else None)
        except ValueError:
            raise AvatarVideoError("the answer is not JSON", code="invalid_answer", status=status) from None
