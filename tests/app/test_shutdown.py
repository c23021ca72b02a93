"""A server process: SIGTERM drains and exits 0; SIGKILL loses no message a client was told
about, and the next start leaves nothing `streaming`. (SQLite only: this is about the process.)"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data_dir: Path, **env: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        environ = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
        environ.update({
            "HEARTH_DATA_DIR": str(data_dir), "HEARTH_SERVER__PORT": str(self.port),
            "HEARTH_AUTH__SCRYPT_N": "16", "HEARTH_SERVER__LOG_LEVEL": "warning",
            "PYTHONPATH": str(ROOT), "HEARTH_RETRIEVAL__ENABLED": "false",
            # Output rails hold text back for checking; these tests time raw deltas.
            "HEARTH_GUARDRAILS__ENABLED": "false", **env,
        })
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.app.fake_server"], cwd=data_dir.parent, env=environ,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/health", timeout=0.5).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                break
        raise AssertionError(f"server did not start: {self.output()}")

    def output(self) -> str:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.communicate(timeout=10)[0].decode(errors="replace")

    def ws(self, token: str):
        return connect(f"ws://127.0.0.1:{self.port}/ws?token={token}", open_timeout=5)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(10)


def _signup(base: str) -> str:
    r = httpx.post(f"{base}/api/auth/signup",
                   json={"username": "alice", "password": "correct horse"})
    return r.json()["token"]


def _recv(ws, n_deltas: int | None = None, until_type: str | None = None) -> list[dict]:
    frames: list[dict] = []
    while True:
        frames.append(json.loads(ws.recv(timeout=10)))
        if n_deltas is not None and sum(f["type"] == "delta" for f in frames) == n_deltas:
            return frames
        if until_type is not None and frames[-1]["type"] == until_type:
            return frames


def _message(db: Path, message_id: str) -> tuple[str, str, str | None]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT status, content, finish_reason FROM messages WHERE id = ?",
                            (message_id,)).fetchone()


def test_sigterm_lets_running_answers_finish_then_exits_0(tmp_path: Path, servers) -> None:
    data = tmp_path / "data"
    server = Server(data, FAKE_TOKEN_DELAY="0.04", HEARTH_SERVER__DRAIN_SECONDS="20")
    servers.append(server)
    token = _signup(server.base)
    with server.ws(token) as ws:
        ws.send(json.dumps({"type": "chat", "content": "please finish this"}))
        frames = _recv(ws, n_deltas=2)
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        ws.send(json.dumps({"type": "chat", "content": "a new one"}))
        frames += _recv(ws, until_type="done")
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=10)
    errors = [f for f in frames if f["type"] == "error"]
    assert [e["code"] for e in errors] == ["overloaded"]
    text = "".join(f["text"] for f in frames if f["type"] == "delta")
    assert text == "You said: please finish this" and frames[-1]["finish_reason"] == "stop"
    assert server.proc.wait(20) == 0
    assert _message(data / "hearth.db", frames[0]["message_id"]) == (
        "complete", "You said: please finish this", "stop")


def test_sigterm_interrupts_what_outlasts_the_drain_window(tmp_path: Path, servers) -> None:
    data = tmp_path / "data"
    server = Server(data, FAKE_TOKEN_DELAY="0.1", HEARTH_SERVER__DRAIN_SECONDS="0.5",
                    HEARTH_CHAT__FLUSH_INTERVAL_SECONDS="0.05", FAKE_REPLY="x" * 200)
    servers.append(server)
    token = _signup(server.base)
    with server.ws(token) as ws:
        ws.send(json.dumps({"type": "chat", "content": "never ends"}))
        frames = _recv(ws, n_deltas=1)
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(20) == 0
    assert time.monotonic() - started < 10
    status, content, reason = _message(data / "hearth.db", frames[0]["message_id"])
    assert (status, reason) == ("interrupted", "error")
    assert 1 <= len(content) < 200 and set(content) == {"x"}


def test_sigkill_loses_nothing_a_client_was_told_and_recovers(tmp_path: Path, servers) -> None:
    data = tmp_path / "data"
    env = {"FAKE_TOKEN_DELAY": "0.02", "HEARTH_CHAT__FLUSH_INTERVAL_SECONDS": "0.1",
           "FAKE_REPLY": "abcdefghij" * 30}
    server = Server(data, **env)
    servers.append(server)
    token = _signup(server.base)
    with server.ws(token) as ws:
        ws.send(json.dumps({"type": "chat", "content": "go"}))
        frames = _recv(ws, n_deltas=20)
        told = "".join(f["text"] for f in frames if f["type"] == "delta")
        time.sleep(0.3)  # more than one flush interval after the client saw `told`
        server.proc.kill()
        server.proc.wait(10)
    mid = frames[0]["message_id"]
    status, content, _ = _message(data / "hearth.db", mid)
    assert status == "streaming" and content.startswith(told)
    restarted = Server(data, **env)
    servers.append(restarted)
    status, content_after, reason = _message(data / "hearth.db", mid)
    assert (status, reason, content_after) == ("interrupted", "error", content)
    with restarted.ws(token) as ws:
        ws.send(json.dumps({"type": "resume", "message_id": mid, "after": 0}))
        replay = _recv(ws, until_type="done")
    assert "".join(f["text"] for f in replay if f["type"] == "delta") == content
    assert replay[-1]["finish_reason"] == "error"
    user_row = sqlite3.connect(data / "hearth.db").execute(
        "SELECT content, status FROM messages WHERE id = ?", (frames[0]["user_message_id"],)
    ).fetchone()
    assert user_row == ("go", "complete")
