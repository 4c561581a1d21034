from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ._transport import Transport

T = TypeVar("T")


def list_pages(
    transport: Transport,
    path: str,
    key: str,
    read: Callable[[Any], T],
    *,
    statuses: list[str] | None = None,
    page_size: int | None = None,
    timeout: float | None = None,
    max_retries: int | None = None,
) -> Iterator[T]:
    """Every item of every page, fetching the next page (its ``nextPageToken``, the same size) only when the
    items run out."""
    token: str | None = None
    while True:
        query = {"statuses": statuses, "pagination.pageSize": page_size, "pagination.pageToken": token}
        page = transport.request("GET", path, query=query, timeout=timeout, max_retries=max_retries).data
        yield from (read(item) for item in page[key])
        token = page["pagination"]["nextPageToken"] or None
        if token is None:
            return
