"""The API's resources: avatars, Avatar creation jobs, video jobs and session tokens."""

from __future__ import annotations

import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from ._pages import list_pages
from ._transport import Transport
from .models import (
    Avatar,
    AvatarCheck,
    AvatarCheckRequest,
    AvatarJob,
    CreateAvatarRequest,
    CreateAvatarResponse,
    CreateVideoRequest,
    CreateVideoResponse,
    SessionTokenRequest,
    VideoJob,
    VideoJobDetail,
    VideoSettings,
)

Job = TypeVar("Job")

#: Default lifetime of a session token: long enough to connect, short as the spec asks (one per connection).
SESSION_TOKEN_TTL = 600


@dataclass(frozen=True, kw_only=True)
class CreatedVideo(CreateVideoResponse):
    """The accepted video job, with the retry key that was sent (repeat it to get the same job back)."""

    request_id: str


@dataclass(frozen=True, kw_only=True)
class SessionToken:
    """A token for one live motion connection (``GET /v1/motion?token=…``), and its expiry (Unix seconds)."""

    session_token: str
    expire_at: int


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport


class _Jobs(_Resource, Generic[Job]):
    """A kind of job listed at ``_path``, read from each item by ``_read``."""

    _path: ClassVar[str]
    _read: ClassVar[Callable[[Any], Any]]

    def list(
        self,
        *,
        statuses: list[str] | None = None,
        page_size: int | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
    ) -> Iterator[Job]:
        """The jobs, newest first, across all pages; ``statuses`` filters (queued, failed …)."""
        options = {"statuses": statuses, "page_size": page_size, "timeout": timeout, "max_retries": max_retries}
        return list_pages(self._transport, self._path, "jobs", self._read, **options)


class Avatars(_Resource):
    """Avatars: create one from a portrait URL, check a portrait first, read them."""

    def create(
        self,
        request: CreateAvatarRequest | None = None,
        /,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        **fields: Any,
    ) -> CreateAvatarResponse:
        """Queues an Avatar creation job (one Avatar Creation is reserved): ``create(image_url=…, name=…)``.

        Wait for it with ``wait_for_avatar(job_id)``. Retried only after a 429: it has no retry key.
        """
        body = (request or CreateAvatarRequest(**fields)).to_dict()
        options = {"timeout": timeout, "max_retries": max_retries}
        answer = self._transport.request("POST", "/v1/open/avatars", body=body, **options)
        return CreateAvatarResponse.from_dict(answer.data)

    def check(self, image_url: str, *, timeout: float | None = None, max_retries: int | None = None) -> AvatarCheck:
        """Whether the image would become an Avatar, and if not why; creates nothing."""
        body = AvatarCheckRequest(image_url=image_url).to_dict()
        answer = self._transport.request(
            "POST", "/v1/open/avatar-checks", body=body, timeout=timeout, max_retries=max_retries
        )
        return AvatarCheck.from_dict(answer.data)

    def get(self, avatar_id: str, *, timeout: float | None = None, max_retries: int | None = None) -> Avatar:
        path = f"/v1/open/avatars/{_segment(avatar_id)}"
        answer = self._transport.request("GET", path, timeout=timeout, max_retries=max_retries)
        return Avatar.from_dict(answer.data["avatar"])

    def list(
        self, *, page_size: int | None = None, timeout: float | None = None, max_retries: int | None = None
    ) -> Iterator[Avatar]:
        """The account's Avatars, newest first, across all pages (fetched as you iterate)."""
        options = {"page_size": page_size, "timeout": timeout, "max_retries": max_retries}
        return list_pages(self._transport, "/v1/open/avatars", "avatars", Avatar.from_dict, **options)


class AvatarJobs(_Jobs[AvatarJob]):
    """Avatar creation jobs."""

    _path = "/v1/open/avatar-jobs"
    _read = AvatarJob.from_dict

    def get(self, job_id: str, *, timeout: float | None = None, max_retries: int | None = None) -> AvatarJob:
        path = f"/v1/open/avatar-jobs/{_segment(job_id)}"
        answer = self._transport.request("GET", path, timeout=timeout, max_retries=max_retries)
        return AvatarJob.from_dict(answer.data["job"])


class Videos(_Jobs[VideoJob]):
    """Video jobs: render an Avatar speaking an audio URL, read the jobs (a succeeded one with its MP4 link).

    ``list`` gives summaries, without download links.
    """

    _path = "/v1/open/video-jobs"
    _read = VideoJob.from_dict

    def create(
        self,
        request: CreateVideoRequest | None = None,
        /,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        **fields: Any,
    ) -> CreatedVideo:
        """Accepts a video job: ``create(avatar_id=…, audio_url=…, video=VideoSettings(width=1280, height=720))``.

        Every attempt sends the same ``request_id`` (the given one, else a new UUID), so a retry never renders
        twice; calling again with the same ``request_id`` and input answers with the same job.
        """
        if isinstance(fields.get("video"), Mapping):
            fields["video"] = VideoSettings(**fields["video"])
        body = (request or CreateVideoRequest(**fields)).to_dict()
        body.setdefault("requestId", str(uuid.uuid4()))
        answer = self._transport.request("POST", "/v1/open/videos", body=body, timeout=timeout, max_retries=max_retries)
        created = CreateVideoResponse.from_dict(answer.data)
        return CreatedVideo(
            job_id=created.job_id, status=created.status, created_at=created.created_at, request_id=body["requestId"]
        )

    def get(self, job_id: str, *, timeout: float | None = None, max_retries: int | None = None) -> VideoJobDetail:
        """The job and, once it succeeded (and until it expires), a fresh 15-minute ``video_url``."""
        path = f"/v1/open/video-jobs/{_segment(job_id)}"
        answer = self._transport.request("GET", path, timeout=timeout, max_retries=max_retries)
        return VideoJobDetail.from_dict(answer.data)


class SessionTokens(_Resource):
    """Short-lived tokens a browser connects to the live motion service with, instead of the key."""

    def create(
        self,
        *,
        ttl: int = SESSION_TOKEN_TTL,
        expire_at: int | None = None,
        model_version: str | None = None,
        timeout: float | None = None,
    ) -> SessionToken:
        """Mints one token, expiring ``ttl`` seconds from now (or at ``expire_at``, Unix seconds, under 24 h)."""
        expire_at = int(time.time()) + ttl if expire_at is None else expire_at
        body = SessionTokenRequest(expire_at=expire_at, model_version=model_version).to_dict()
        answer = self._transport.request("POST", "/v1/console/session-tokens", body=body, timeout=timeout)
        return SessionToken(session_token=answer.data["sessionToken"], expire_at=expire_at)


def _segment(value: str) -> str:
    """An ID as one path segment (a stray slash cannot reach another route)."""
    return urllib.parse.quote(value, safe="")
