"""Python SDK of the Avatar Video Open API: ``AvatarVideo().videos.create(avatar_id=…, audio_url=…)``.

Standard library only. See README.md for the whole surface.
"""

from . import models
from ._client import DEFAULT_BASE_URL, AvatarVideo
from ._errors import RETRYABLE_STATUSES, AvatarVideoError
from ._resources import CreatedVideo, SessionToken
from ._transport import USER_AGENT
from ._version import __version__
from .models import (
    Avatar,
    AvatarCheck,
    AvatarJob,
    CreateAvatarResponse,
    CreateVideoRequest,
    VideoJob,
    VideoJobDetail,
    VideoSettings,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "RETRYABLE_STATUSES",
    "USER_AGENT",
    "Avatar",
    "AvatarCheck",
    "AvatarJob",
    "AvatarVideo",
    "AvatarVideoError",
    "CreateAvatarResponse",
    "CreateVideoRequest",
    "CreatedVideo",
    "SessionToken",
    "VideoJob",
    "VideoJobDetail",
    "VideoSettings",
    "__version__",
    "models",
]
