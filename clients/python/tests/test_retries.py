import time
import unittest

from avatar_video import AvatarVideo, AvatarVideoError

from .scripted_server import API_KEY, AVATAR_ID, JOB_ID, ServerTestCase, avatar, envelope

NOW = {"Retry-After": "0"}
CREATED = {"body": {"jobId": JOB_ID, "status": "queued", "createdAt": "2026-01-01T00:00:00.000Z"}}
OK = {"body": {"avatar": avatar()}}


def sdk(url: str, **options) -> AvatarVideo:
    return AvatarVideo(base_url=url, app_id="app-1", api_key=API_KEY, **options)


def failing(*statuses: int) -> list[dict]:
    return [{"status": s, "headers": NOW, "body": envelope("x")} for s in statuses]


class RetryTest(ServerTestCase):
    def test_repeats_a_read_on_408_429_500_502_503_504_and_a_dropped_connection(self) -> None:
        # The dropped connection first: its backoff (no Retry-After) is then the shortest, 0.25 to 0.5 s.
        self.server.answer({"drop": True}, *failing(408, 429, 500, 502, 503, 504), OK)
        self.assertEqual(sdk(self.server.url, max_retries=7).avatars.get(AVATAR_ID).id, AVATAR_ID)
        self.assertEqual(len(self.server.seen), 8)

    def test_gives_up_after_max_retries_per_client_or_per_call(self) -> None:
        self.server.answer(*failing(503, 503, 503, 503))
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).avatars.get(AVATAR_ID)
        self.assertEqual((caught.exception.status, len(self.server.seen)), (503, 3))
        self.server.reset()
        self.server.answer(*failing(503, 503), OK)
        self.assertEqual(sdk(self.server.url, max_retries=0).avatars.get(AVATAR_ID, max_retries=2).id, AVATAR_ID)

    def test_does_not_repeat_400_401_404_or_409(self) -> None:
        for status in (400, 401, 404, 409):
            self.server.reset()
            self.server.answer(*failing(status), CREATED)
            with self.assertRaises(AvatarVideoError) as caught:
                sdk(self.server.url).videos.create(avatar_id=AVATAR_ID, audio_url="http://media.local/a.wav")
            self.assertEqual((caught.exception.status, caught.exception.retryable), (status, False))
            self.assertEqual(len(self.server.seen), 1)

    def test_keeps_the_request_id_of_post_videos_across_retries(self) -> None:
        self.server.answer({"drop": True}, *failing(500, 502, 504, 408), CREATED)
        job = sdk(self.server.url, max_retries=5).videos.create(
            avatar_id=AVATAR_ID, audio_url="http://media.local/a.wav", request_id="4c1f0e9a-2d7b-4a53-9e86-0b5d3c7f1a22"
        )
        keys = {s.body["requestId"] for s in self.server.seen}
        self.assertEqual((len(self.server.seen), keys), (6, {"4c1f0e9a-2d7b-4a53-9e86-0b5d3c7f1a22"}))
        self.assertEqual(job.request_id, "4c1f0e9a-2d7b-4a53-9e86-0b5d3c7f1a22")

    def test_retries_post_avatars_on_429_only(self) -> None:
        self.server.answer(*failing(503))
        with self.assertRaises(AvatarVideoError):
            sdk(self.server.url).avatars.create(image_url="http://media.local/p.jpg")
        self.assertEqual(len(self.server.seen), 1)
        self.server.reset()
        self.server.answer(*failing(429), {"body": {"jobId": JOB_ID, "status": "queued"}})
        self.assertEqual(sdk(self.server.url).avatars.create(image_url="http://media.local/p.jpg").job_id, JOB_ID)
        self.assertEqual(self.server.seen[1].body, {"imageUrl": "http://media.local/p.jpg"})

    def test_waits_retry_after(self) -> None:
        limited = {"status": 429, "headers": {"Retry-After": "1"}, "body": envelope("rate_limit_exceeded")}
        self.server.answer(limited, OK)
        sdk(self.server.url).avatars.get(AVATAR_ID)
        self.assertGreaterEqual(self.server.seen[1].at - self.server.seen[0].at, 0.95)

    def test_hands_a_retry_after_over_a_minute_to_the_caller(self) -> None:
        hourly = {"status": 429, "headers": {"Retry-After": "3600"}, "body": envelope("rate_limit_exceeded")}
        self.server.answer(hourly)
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).avatars.get(AVATAR_ID)
        self.assertEqual((caught.exception.retry_after, caught.exception.retryable), (3600.0, True))
        self.assertEqual(len(self.server.seen), 1)

    def test_backs_off_exponentially_with_jitter(self) -> None:
        bare = {"status": 503, "body": envelope("service_unavailable")}
        self.server.answer(bare, bare, OK)
        sdk(self.server.url).avatars.get(AVATAR_ID)
        first = self.server.seen[1].at - self.server.seen[0].at
        second = self.server.seen[2].at - self.server.seen[1].at
        self.assertTrue(0.24 <= first < 0.7, first)
        self.assertTrue(0.49 <= second < 1.3, second)


class TimeoutTest(ServerTestCase):
    def test_bounds_each_attempt_and_retries_a_slow_read(self) -> None:
        self.server.answer({**OK, "delay": 1.0}, OK)
        started = time.monotonic()
        self.assertEqual(sdk(self.server.url, timeout=0.3).avatars.get(AVATAR_ID).id, AVATAR_ID)
        self.assertLess(time.monotonic() - started, 1.0)

    def test_ends_in_a_timeout_error_per_call(self) -> None:
        self.server.answer({**OK, "delay": 1.0})
        with self.assertRaises(AvatarVideoError) as caught:
            sdk(self.server.url).avatars.get(AVATAR_ID, timeout=0.2, max_retries=0)
        self.assertEqual((caught.exception.code, caught.exception.status), ("timeout", None))
        self.assertTrue(caught.exception.retryable)

    def test_a_closed_port_is_a_connection_error(self) -> None:
        with self.assertRaises(AvatarVideoError) as caught:
            sdk("http://127.0.0.1:9", max_retries=0).avatars.get(AVATAR_ID)
        self.assertEqual(caught.exception.code, "connection_error")


if __name__ == "__main__":
    unittest.main()
