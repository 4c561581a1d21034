import json
import unittest
from dataclasses import FrozenInstanceError
from datetime import datetime
from pathlib import Path

from avatar_video import models

SNAPSHOT = Path(__file__).resolve().parents[3] / "test/worker/fixtures/openapi/open.json"


def examples() -> list[tuple[str, str, object]]:
    """(operation, schema name, example) of every JSON request and 2xx response example in the OpenAPI document."""
    doc = json.loads(SNAPSHOT.read_text())
    found = []
    for item in doc["paths"].values():
        for op in item.values():
            bodies = [op.get("requestBody", {})] + [r for s, r in op["responses"].items() if s.startswith("2")]
            for body in bodies:
                media = body.get("content", {}).get("application/json", {})
                ref = media.get("schema", {}).get("$ref")
                if ref and "example" in media:
                    found.append((op["operationId"], ref.split("/")[-1], media["example"]))
    return found


@unittest.skipUnless(SNAPSHOT.exists(), "the OpenAPI snapshot is in the repository, not in the package")
class ModelTest(unittest.TestCase):
    def test_every_example_of_the_document_reads_and_writes_back_unchanged(self) -> None:
        cases = examples()
        self.assertGreaterEqual(len(cases), 10)
        for operation, schema, example in cases:
            with self.subTest(operation=operation, schema=schema):
                model = getattr(models, schema).from_dict(example)
                self.assertEqual(model.to_dict(), example)

    def test_reads_nested_models_datetimes_and_nulls(self) -> None:
        check = models.AvatarCheck.from_dict(
            {"acceptable": False, "code": "invalid_image", "reason": "image_too_small", "detail": "d", "face": None}
        )
        self.assertEqual((check.reason, check.face), ("image_too_small", None))
        job = models.VideoJob.from_dict(
            {
                "id": "j",
                "status": "succeeded",
                "avatarId": "a",
                "name": "n",
                "progress": {"stage": "completed"},
                "createdAt": "2026-11-20T09:30:00.000Z",
                "updatedAt": "2026-11-20T09:30:41.000Z",
                "expiresAt": "2026-11-27T09:30:00.000Z",
                "aFieldFromANewerServer": 1,
            }
        )
        self.assertIsInstance(job.created_at, datetime)
        self.assertEqual((job.progress.stage, job.created_at.tzinfo is not None), ("completed", True))
        with self.assertRaises(FrozenInstanceError):
            job.status = "failed"  # type: ignore[misc]

    def test_writes_requests_in_the_api_field_names_without_none(self) -> None:
        request = models.CreateVideoRequest(avatar_id="a", audio_url="u", video=models.VideoSettings(lead_in_seconds=1))
        self.assertEqual(request.to_dict(), {"avatarId": "a", "audioUrl": "u", "video": {"leadInSeconds": 1}})


if __name__ == "__main__":
    unittest.main()
