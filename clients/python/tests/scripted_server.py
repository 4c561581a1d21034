"""A local http.server that answers each request with the next scripted answer and records what it was asked."""

from __future__ import annotations

import json
import threading
import time
import unittest
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    at: float


def envelope(code: str, request_id: str = "req-envelope", message: str | None = None) -> dict[str, Any]:
    """The envelope the API answers errors with."""
    return {"error": {"code": code, "message": message or f"{code} happened", "requestId": request_id}}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (its timeout) leaves a broken pipe here: expected, not worth a traceback."""


class ScriptedServer:
    """Answers are dicts: ``status``, ``headers``, ``body`` (JSON), ``delay`` (seconds), ``drop`` (no answer)."""

    def __init__(self) -> None:
        self.answers: deque[dict[str, Any]] = deque()
        self.seen: list[Seen] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def handle_any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                text = self.rfile.read(length).decode() if length else ""
                url = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                body = json.loads(text) if text else None
                server.seen.append(Seen(self.command, url.path, parse_qs(url.query), headers, body, time.monotonic()))
                unscripted = {"status": 500, "body": envelope("internal_error", "req-unscripted")}
                answer = server.answers.popleft() if server.answers else unscripted
                time.sleep(answer.get("delay", 0))
                if answer.get("drop"):
                    self.close_connection = True
                    return
                payload = json.dumps(answer["body"]).encode() if "body" in answer else b""
                self.send_response(answer.get("status", 200))
                for name, value in {"Content-Type": "application/json", **answer.get("headers", {})}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = handle_any

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, *answers: dict[str, Any]) -> None:
        self.answers.extend(answers)

    def reset(self) -> None:
        self.answers.clear()
        self.seen.clear()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ServerTestCase(unittest.TestCase):
    """A scripted server per test class, reset before each test."""

    server: ScriptedServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = ScriptedServer()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.close()

    def setUp(self) -> None:
        self.server.reset()


JOB_ID = "3f0f3c1e-8a4b-4c55-9d6c-2f1a7e5b9c01"
AVATAR_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
API_KEY = "av_test_key_0123456789abcdef"
STAMP = {"createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}


def avatar(avatar_id: str = AVATAR_ID) -> dict[str, Any]:
    return {"id": avatar_id, "name": "Ada", "coverUrl": f"http://media.local/{avatar_id}.jpg", **STAMP}


def avatar_job(status: str, **extra: Any) -> dict[str, Any]:
    return {"job": {"id": JOB_ID, "status": status, "name": "Ada", **STAMP, **extra}}


def video_job(status: str, stage: str, **extra: Any) -> dict[str, Any]:
    job = {"id": JOB_ID, "status": status, "avatarId": AVATAR_ID, "name": "hello", "progress": {"stage": stage}}
    return {"job": {**job, **STAMP, "expiresAt": "2026-01-08T00:00:00.000Z"}, **extra}


def page(key: str, items: list[Any], next_page_token: str = "") -> dict[str, Any]:
    return {key: items, "pagination": {"nextPageToken": next_page_token, "totalCount": len(items)}}
