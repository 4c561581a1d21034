from __future__ import annotations

import json
import time
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Any

#: Statuses a repeated request may get past: a timed-out request, rate limits, transient server or gateway failures.
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


class AvatarVideoError(Exception):
    """Every failed call: a non-2xx answer (with the API's code and request id), a lost connection or a timeout.

    ``status`` is None when no answer came; ``code`` is then ``connection_error`` or ``timeout``.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: int | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        #: Identifies the HTTP request (quote it to support): the error envelope's, else the X-Request-ID header.
        self.request_id = request_id
        #: The answer's Retry-After, in seconds.
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        """Whether the same request may succeed later (408, 429, 5xx gateway and server failures, no answer)."""
        return self.status is None or self.status in RETRYABLE_STATUSES

    def __str__(self) -> str:
        where = [
            f"HTTP {self.status}" if self.status else "",
            f"request id {self.request_id}" if self.request_id else "",
        ]
        detail = ", ".join(w for w in where if w)
        return f"{self.code}: {self.message}" + (f" ({detail})" if detail else "")

    def __repr__(self) -> str:
        return f"AvatarVideoError(code={self.code!r}, status={self.status!r}, request_id={self.request_id!r})"

    @classmethod
    def from_answer(cls, status: int, headers: Message, body: bytes) -> AvatarVideoError:
        """The error of a non-2xx answer: its envelope ``{"error": {code, message, requestId}}`` if it has one."""
        envelope: Any = None
        try:
            envelope = json.loads(body).get("error")
        except (ValueError, AttributeError):
            pass
        if not isinstance(envelope, dict):
            envelope = {}
        return cls(
            str(envelope.get("message") or f"HTTP {status}"),
            code=str(envelope.get("code") or f"http_{status}"),
            status=status,
            request_id=envelope.get("requestId") or headers.get("X-Request-ID"),
            retry_after=retry_after_seconds(headers.get("Retry-After")),
        )


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """A Retry-After header (delta-seconds or HTTP date) in seconds; None when absent or unreadable."""
    if not header:
        return None
    try:
        seconds = float(header)
        return seconds if seconds >= 0 else None
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(header).timestamp() - (time.time() if now is None else now))
    except (TypeError, ValueError):
        return None
