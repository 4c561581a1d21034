"""What the generated models (models.py) are built on: reading JSON values, and writing a model back as JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from datetime import datetime
from typing import Any, TypeVar

T = TypeVar("T")


def read_datetime(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def read_optional(value: Any, read: Callable[[Any], T]) -> T | None:
    return None if value is None else read(value)


def read_each(read: Callable[[Any], T]) -> Callable[[list[Any]], list[T]]:
    return lambda items: [read(item) for item in items]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _json(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, datetime):
        return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, list):
        return [_json(item) for item in value]
    return value


class Model:
    """Base of the generated dataclasses."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this value in the API's field names; optional fields left as None are left out."""
        return {
            _camel(f.name): _json(getattr(self, f.name))
            for f in fields(self)  # type: ignore[arg-type]
            if getattr(self, f.name) is not None or f.default is MISSING
        }
