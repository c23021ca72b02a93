"""Fuzz the WebSocket with malformed frames: never a server error, always the protocol's answer."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import signup

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=10,
)
_types = st.sampled_from(["chat", "cancel", "regenerate", "resume", "ping", "pong", "", None, 3])
_fields = st.dictionaries(
    st.sampled_from(["conversation_id", "content", "params", "documents", "message_id", "after",
                     "extra"]),
    _json | st.text(max_size=50), max_size=4,
)
_nul = st.sampled_from([
    {"type": "chat", "content": "a\x00b"}, {"type": "resume", "message_id": "\x00"},
    {"type": "cancel", "message_id": "x\x00"}, {"type": "chat", "content": "x", "k\x00": 1},
]).map(json.dumps)
_frames = st.one_of(
    _nul,
    st.text(max_size=60),  # mostly not JSON
    _json.map(json.dumps),
    st.builds(lambda t, f: json.dumps({"type": t, **f}), _types, _fields),
)


def test_malformed_frames_get_protocol_errors(make_settings, fake_engine) -> None:
    app = create_app(make_settings(limits={"messages_per_minute": 10_000}),
                     engine_factory=lambda s: fake_engine)
    with TestClient(app) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            # Over the whole run: every generation that starts ends with exactly one done.
            # A generation's frames may arrive after the pong that follows its chat frame,
            # so the bookkeeping spans examples.
            started: set[str] = set()
            done: set[str] = set()

            def read_until_settled() -> None:
                ws.send_json({"type": "ping"})
                while True:
                    reply = ws.receive_json()
                    kind = reply["type"]
                    assert kind in {"start", "delta", "done", "error", "pong", "citations",
                                    "blocked"}, reply
                    if kind == "error":
                        assert reply["code"] in {"invalid_json", "invalid_frame", "not_found",
                                                 "rate_limited", "overloaded",
                                                 "context_length_exceeded"}, reply
                        assert "Traceback" not in reply["message"]
                    elif kind == "start":
                        assert reply["message_id"] not in started
                        started.add(reply["message_id"])
                    elif kind == "done":
                        assert reply["message_id"] in started
                        assert reply["message_id"] not in done
                        done.add(reply["message_id"])
                    elif kind == "pong":
                        if started == done:
                            return
                        ws.send_json({"type": "ping"})  # still running: ask again

            @settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
            @given(frame=_frames)
            def check(frame: str) -> None:
                ws.send_text(frame)
                # Whatever the frame did, the socket still answers with protocol frames.
                read_until_settled()

            check()
            assert started == done
