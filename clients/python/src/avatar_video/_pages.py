from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def paginate(fetch_page: Callable[[str | None], Mapping[str, Any]], key: str, read: Callable[[Any], T]) -> Iterator[T]:
    """Every item of every page, fetching the next page (by its ``nextPageToken``) only when the items run out."""
    token: str | None = None
    while True:
        page = fetch_page(token)
        for item in page[key]:
            yield read(item)
        token = page["pagination"]["nextPageToken"] or None
        if token is None:
            return


def page_query(page_size: int | None, token: str | None, statuses: list[str] | None = None) -> dict[str, Any]:
    """The query of one page: the same size on every page, the token of the page before."""
    return {"statuses": statuses, "pagination.pageSize": page_size, "pagination.pageToken": token}
