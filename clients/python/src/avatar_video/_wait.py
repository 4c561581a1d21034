from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypedDict, TypeVar

from ._errors import AvatarVideoError

T = TypeVar("T")

#: The spec's polling intervals, in seconds: Avatar jobs every 5 to 10 s, video jobs every 15 s.
AVATAR_POLL = 5.0
VIDEO_POLL = 15.0
ENDED = frozenset({"succeeded", "failed", "expired"})


class WaitOptions(TypedDict, total=False):
    """How a wait polls: every ``interval`` seconds, giving up after ``timeout`` seconds (None: never), calling
    ``on_stage`` with each new stage."""

    interval: float
    timeout: float | None
    on_stage: Callable[[str], object] | None


def wait_for_job(
    read: Callable[[], T],
    stage: Callable[[T], str],
    status: Callable[[T], str],
    *,
    interval: float,
    timeout: float | None = None,
    on_stage: Callable[[str], object] | None = None,
) -> T:
    """Reads until the job has ended and returns the last read, whatever the outcome.

    A read that still fails after its own retries with a retryable error (rate limit, outage) is tried again at
    the next poll, since the job goes on meanwhile; any other error ends the wait. ``timeout`` (seconds) gives up
    with an AvatarVideoError of code ``timeout``.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    last_stage: str | None = None
    while True:
        wait = interval
        try:
            value = read()
            if stage(value) != last_stage:
                last_stage = stage(value)
                if on_stage:
                    on_stage(last_stage)
            if status(value) in ENDED:
                return value
        except AvatarVideoError as error:
            if not error.retryable:
                raise
            wait = max(interval, error.retry_after or 0)
        if deadline is not None and time.monotonic() + wait > deadline:
            raise AvatarVideoError(f"the job did not end within {timeout} s", code="timeout")
        time.sleep(wait)
