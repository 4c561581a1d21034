from __future__ import annotations

import os
from functools import partial
from operator import attrgetter
from typing import Unpack

from ._resources import Avatars, AvatarJobs, SessionTokens, Videos
from ._transport import Settings, Transport
from ._wait import AVATAR_POLL, VIDEO_POLL, WaitOptions, wait_for_job
from .models import AvatarJob, VideoJobDetail

#: The local stack of the repository (``npm start``); set ``base_url`` or AVATAR_VIDEO_BASE_URL for any other.
DEFAULT_BASE_URL = "http://127.0.0.1:8787"


class AvatarVideo:
    """The Avatar Video Open API.

    Every method returns the answer's resource and raises AvatarVideoError on a non-2xx answer; 408, 429, 500,
    502, 503, 504 and lost connections are retried with backoff. Arguments left out come from
    AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY. Keep the key on a server.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        app_id: str | None = None,
        api_key: str | None = None,
        max_retries: int = 2,
        timeout: float = 60.0,
    ) -> None:
        app_id = app_id or os.environ.get("AVATAR_VIDEO_APP_ID")
        api_key = api_key or os.environ.get("AVATAR_VIDEO_API_KEY")
        if not app_id:
            raise ValueError("AvatarVideo: no app_id (pass app_id= or set AVATAR_VIDEO_APP_ID)")
        if not api_key:
            raise ValueError("AvatarVideo: no api_key (pass api_key= or set AVATAR_VIDEO_API_KEY)")
        base_url = (base_url or os.environ.get("AVATAR_VIDEO_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        transport = Transport(Settings(base_url, max_retries, timeout), app_id, api_key)
        self.base_url = base_url
        self.avatars = Avatars(transport)
        self.avatar_jobs = AvatarJobs(transport)
        self.videos = Videos(transport)
        self.session_tokens = SessionTokens(transport)

    def __repr__(self) -> str:
        return f"AvatarVideo(base_url={self.base_url!r})"

    def wait_for_avatar(self, job_id: str, **options: Unpack[WaitOptions]) -> AvatarJob:
        """Polls an Avatar creation job (every 5 s unless ``interval`` says) until it succeeded or failed; returns
        the final job."""
        interval = options.pop("interval", AVATAR_POLL)
        status = attrgetter("status")
        return wait_for_job(partial(self.avatar_jobs.get, job_id), status, status, interval=interval, **options)

    def wait_for_video(self, job_id: str, **options: Unpack[WaitOptions]) -> VideoJobDetail:
        """Polls a video job (every 15 s unless ``interval`` says) until it ended; returns the final detail
        (``video_url`` set when it succeeded)."""
        interval = options.pop("interval", VIDEO_POLL)
        stage, status = attrgetter("job.progress.stage"), attrgetter("job.status")
        return wait_for_job(partial(self.videos.get, job_id), stage, status, interval=interval, **options)
