import os
import unittest
from datetime import datetime, timezone
from unittest import mock

from avatar_video import USER_AGENT, AvatarVideo, AvatarVideoError, VideoSettings, __version__
from avatar_video.models import Avatar

from .scripted_server import API_KEY, AVATAR_ID, JOB_ID, ServerTestCase, avatar, envelope, page, video_job


def sdk(url: str, **options) -> AvatarVideo:
    return AvatarVideo(base_url=url, app_id="app-1", api_key=API_KEY, **options)


class ClientTest(ServerTestCase):
    def test_reads_the_environment_when_arguments_are_left_out(self) -> None:
        self.server.answer({"body": {"avatar": avatar()}})
        env = {"AVATAR_VIDEO_BASE_URL": self.server.url, "AVATAR_VIDEO_APP_ID": "app-env", "AVATAR_VIDEO_API_KEY": "k"}
        with mock.patch.dict(os.environ, env):
            AvatarVideo().avatars.get(AVATAR_ID)
        seen = self.server.seen[0].headers
        self.assertEqual((seen["x-app-id"], seen["x-api-key"]), ("app-env", "k"))

    def test_names_the_missing_setting(self) -> None:
        with mock.patch.dict(os.environ, {"AVATAR_VIDEO_APP_ID": "", "AVATAR_VIDEO_API_KEY": ""}):
            with self.assertRaisesRegex(ValueError, "AVATAR_VIDEO_APP_ID"):
                AvatarVideo(api_key="k")
            with self.assertRaisesRegex(ValueError, "AVATAR_VIDEO_API_KEY"):
                AvatarVideo(app_id="a")

    def test_sends_the_app_headers_and_user_agent_and_reads_typed_models(self) -> None:
        self.server.answer({"body": {"avatar": avatar()}})
        got = sdk(self.server.url).avatars.get(AVATAR_ID)
        self.assertIsInstance(got, Avatar)
        self.assertEqual(got.cover_url, f"http://media.local/{AVATAR_ID}.jpg")
        self.assertEqual(got.created_at, datetime(2026, 1, 1, tzinfo=timezone.utc))
        seen = self.server.seen[0]
        self.assertEqual((seen.method, seen.path), ("GET", f"/v1/open/avatars/{AVATAR_ID}"))
        self.assertEqual(seen.headers["user-agent"], f"avatar-video-python/{__version__}")
        self.assertEqual(USER_AGENT, f"avatar-video-python/{__version__}")
        self.assertEqual(seen.headers["x-api-key"], API_KEY)

    def test_creates_a_video_with_camel_case_body_and_a_retry_key(self) -> None:
        created = {"jobId": JOB_ID, "status": "queued", "createdAt": "2026-01-01T00:00:00.000Z"}
        self.server.answer({"body": created}, {"body": created})
        av = sdk(self.server.url)
        job = av.videos.create(
            avatar_id=AVATAR_ID, audio_url="http://media.local/a.wav", video=VideoSettings(width=1280, height=720)
        )
        av.videos.create(avatar_id=AVATAR_ID, audio_url="http://media.local/a.wav", video={"lead_in_seconds": 1.5})
        first, second = (s.body for s in self.server.seen)
        self.assertEqual(
            first,
            {
                "avatarId": AVATAR_ID,
                "audioUrl": "http://media.local/a.wav",
                "video": {"width": 1280, "height": 720},
                "requestId": job.request_id,
            },
        )
        self.assertEqual(second["video"], {"leadInSeconds": 1.5})
        self.assertNotEqual(first["requestId"], second["requestId"])
        self.assertEqual((job.job_id, job.status), (JOB_ID, "queued"))

    def test_refuses_a_field_the_api_does_not_have(self) -> None:
        with self.assertRaises(TypeError):
            sdk(self.server.url).videos.create(avatar_id=AVATAR_ID, audioURL="u")
        self.assertEqual(self.server.seen, [])

    def test_lists_every_page_with_the_same_size_and_filter(self) -> None:
        second = video_job("failed", "rendering")["job"] | {"id": "00000000-0000-4000-8000-000000000002"}
        self.server.answer(
            {"body": page("jobs", [video_job("failed", "rendering")["job"]], "t1")},
            {"body": page("jobs", [second])},
        )
        ids = [j.id for j in sdk(self.server.url).videos.list(statuses=["failed", "expired"], page_size=1)]
        self.assertEqual(ids, [JOB_ID, second["id"]])
        queries = [s.query for s in self.server.seen]
        self.assertEqual(queries[0], {"statuses": ["failed", "expired"], "pagination.pageSize": ["1"]})
        self.assertEqual(queries[1]["pagination.pageToken"], ["t1"])

    def test_reads_the_job_detail_with_its_link(self) -> None:
        link = {"videoUrl": "http://media.local/v.mp4", "videoUrlExpiresAt": "2026-01-01T00:15:00.000Z"}
        self.server.answer({"body": video_job("succeeded", "completed", **link)})
        detail = sdk(self.server.url).videos.get(JOB_ID)
        self.assertEqual((detail.job.status, detail.job.progress.stage), ("succeeded", "completed"))
        self.assertEqual(detail.video_url, link["videoUrl"])

    def test_mints_session_tokens(self) -> None:
        self.server.answer({"body": {"sessionToken": "eyJ.py.sig"}})
        token = sdk(self.server.url).session_tokens.create(ttl=60, model_version="motion-2.1")
        seen = self.server.seen[0]
        self.assertEqual((seen.method, seen.path), ("POST", "/v1/console/session-tokens"))
        self.assertEqual(seen.body, {"expireAt": token.expire_at, "modelVersion": "motion-2.1"})
        self.assertEqual(token.session_token, "eyJ.py.sig")


class ErrorTest(ServerTestCase):
    def test_carries_status_code_message_request_id_and_retryable(self) -> None:
        self.server.answer({"status": 403, "body": envelope("forbidden", "req-body", "Avatar access denied.")})
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).videos.get(JOB_ID)
        error = caught.exception
        self.assertEqual(
            (error.status, error.code, error.message, error.request_id, error.retryable),
            (403, "forbidden", "Avatar access denied.", "req-body", False),
        )
        self.assertEqual(str(error), "forbidden: Avatar access denied. (HTTP 403, request id req-body)")

    def test_takes_the_request_id_from_the_header_when_the_body_is_no_envelope(self) -> None:
        self.server.answer({"status": 502, "headers": {"x-request-id": "req-header"}, "body": "<html>"})
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url, max_retries=0).avatars.get(AVATAR_ID)
        self.assertEqual((caught.exception.code, caught.exception.request_id), ("http_502", "req-header"))
        self.assertTrue(caught.exception.retryable)

    def test_never_shows_the_key(self) -> None:
        self.server.answer({"status": 401, "body": envelope("unauthorized")})
        av = sdk(self.server.url)
        with self.assertRaises(AvatarVideoError) as caught:
            av.avatars.get(AVATAR_ID)
        texts = [repr(av), repr(av.videos._transport), str(caught.exception), repr(caught.exception), repr(vars(av))]
        for text in texts:
            self.assertNotIn(API_KEY, text)

    def test_does_not_follow_a_redirect_with_the_key(self) -> None:
        self.server.answer({"status": 302, "headers": {"Location": "http://elsewhere.invalid/"}, "body": {}})
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).avatars.get(AVATAR_ID)
        self.assertEqual(caught.exception.status, 302)
        self.assertEqual(len(self.server.seen), 1)


if __name__ == "__main__":
    unittest.main()
