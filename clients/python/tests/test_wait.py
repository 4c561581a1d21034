import time
import unittest

from avatar_video import AvatarVideo, AvatarVideoError

from .scripted_server import API_KEY, AVATAR_ID, JOB_ID, ServerTestCase, avatar_job, envelope, video_job


def sdk(url: str, **options) -> AvatarVideo:
    return AvatarVideo(base_url=url, app_id="app-1", api_key=API_KEY, **options)


class WaitTest(ServerTestCase):
    def test_reports_each_stage_once_and_returns_the_final_detail(self) -> None:
        link = {"videoUrl": "http://media.local/v.mp4", "videoUrlExpiresAt": "2026-01-01T00:15:00.000Z"}
        self.server.answer(
            {"body": video_job("queued", "queued")},
            {"body": video_job("processing", "rendering")},
            {"body": video_job("processing", "rendering")},
            {"body": video_job("succeeded", "completed", **link)},
        )
        stages: list[str] = []
        detail = sdk(self.server.url).wait_for_video(JOB_ID, interval=0.02, on_stage=stages.append)
        self.assertEqual(stages, ["queued", "rendering", "completed"])
        self.assertEqual((detail.job.status, detail.video_url), ("succeeded", link["videoUrl"]))

    def test_returns_failed_avatar_jobs_too(self) -> None:
        error = {"code": "invalid_image", "message": "too small", "retryable": False, "reason": "image_too_small"}
        self.server.answer({"body": avatar_job("processing")}, {"body": avatar_job("failed", error=error)})
        job = sdk(self.server.url).wait_for_avatar(JOB_ID, interval=0.02)
        self.assertEqual((job.status, job.error.code, job.error.reason), ("failed", "invalid_image", "image_too_small"))

    def test_keeps_polling_through_an_outage_waiting_its_retry_after(self) -> None:
        busy = {"status": 503, "headers": {"Retry-After": "1"}, "body": envelope("service_unavailable")}
        self.server.answer(busy, {"body": avatar_job("succeeded", avatarId=AVATAR_ID)})
        job = sdk(self.server.url, max_retries=0).wait_for_avatar(JOB_ID, interval=0.02)
        self.assertEqual(job.avatar_id, AVATAR_ID)
        self.assertGreaterEqual(self.server.seen[1].at - self.server.seen[0].at, 0.95)

    def test_stops_on_an_answer_polling_cannot_fix(self) -> None:
        self.server.answer({"status": 404, "body": envelope("not_found", "req-404")})
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).wait_for_video(JOB_ID, interval=0.02)
        self.assertEqual(caught.exception.request_id, "req-404")

    def test_gives_up_after_its_timeout(self) -> None:
        self.server.answer(*[{"body": video_job("processing", "rendering")}] * 50)
        started = time.monotonic()
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).wait_for_video(JOB_ID, interval=0.05, timeout=0.3)
        self.assertEqual(caught.exception.code, "timeout")
        self.assertLess(time.monotonic() - started, 1.0)


if __name__ == "__main__":
    unittest.main()
