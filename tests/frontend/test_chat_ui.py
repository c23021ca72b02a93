"""Chatting in a real browser against a live `hearth serve` with the real default model:
streamed answers and their details, stop, resume after a reload and after a dropped socket
(also when the `start` was lost with it), regenerate, and edit and resend."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.frontend.conftest import (
    LiveServer,
    conversation_id,
    copied_answer,
    log_in,
    send,
    set_params,
    shot,
    stored,
    wait_answer_done,
    wait_streaming_text,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LONG_PROMPT = "Write a long story about a brave knight who fights a dragon."


def details_of(page: Any) -> dict[str, str]:
    answer = page.locator(".msg-assistant").last
    answer.locator(".msg-details summary").click()
    keys = answer.locator(".msg-details dt").all_inner_texts()
    values = answer.locator(".msg-details dd").all_inner_texts()
    return dict(zip(keys, values, strict=True))


def test_chat_streams_markdown_and_shows_details(browser: Any, server: LiveServer,
                                                 admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=24)
    send(page, "What is the capital of France?")
    partial = wait_streaming_text(page)
    wait_answer_done(page)
    answer = page.locator(".msg-assistant").last
    final = answer.locator(".msg-body").inner_text()
    assert partial and "Paris" in final
    data = stored(page)
    assert [m["role"] for m in data["messages"]] == ["user", "assistant"]
    message = data["messages"][1]
    assert message["status"] == "complete"
    assert copied_answer(page) == message["content"]
    details = details_of(page)
    usage = message["usage"]
    assert details["Prompt tokens"] == str(usage["prompt_tokens"])
    assert details["Answer tokens"] == str(usage["completion_tokens"])
    assert details["Cached tokens"] == str(usage["cached_tokens"])
    assert re.fullmatch(r"\d+\.\d\d s", details["Time to first token"])
    assert re.fullmatch(r"\d+\.\d", details["Tokens per second"])
    assert page.locator("#conversation-list li.active").inner_text().startswith(
        "What is the capital of France?")
    assert page.get_attribute("#send", "hidden") is None
    shot(page, "chat-light")
    assert watch.errors == []
    context.close()


def test_stop_keeps_the_partial_answer(browser: Any, server: LiveServer, admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=300)
    send(page, LONG_PROMPT)
    wait_streaming_text(page, min_chars=20)
    assert page.is_visible("#stop") and not page.is_visible("#send")
    page.keyboard.press("Escape")
    wait_answer_done(page)
    answer = page.locator(".msg-assistant").last
    assert answer.locator(".note").inner_text() == "Stopped"
    message = stored(page)["messages"][1]
    assert (message["status"], message["finish_reason"]) == ("interrupted", "cancelled")
    assert 0 < message["usage"]["completion_tokens"] < 300
    assert copied_answer(page) == message["content"]
    assert answer.locator("button.regenerate").is_visible()
    assert watch.errors == []
    context.close()


def test_reload_mid_answer_resumes_live(browser: Any, server: LiveServer,
                                        admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=200)
    send(page, LONG_PROMPT)
    before = wait_streaming_text(page, min_chars=10)
    streaming = json.loads(page.evaluate("sessionStorage.getItem('hearth.streaming')"))
    message_id = page.locator(".msg-assistant").last.get_attribute("data-id")
    assert streaming == {message_id: conversation_id(page)}
    page.reload()
    # The answer comes back (replayed from delta 0) and keeps growing live.
    resumed = wait_streaming_text(page, min_chars=len(before) + 20)
    assert resumed.startswith(before[:10])
    assert page.locator(".msg-assistant").last.get_attribute("data-id") == message_id
    wait_answer_done(page)
    message = stored(page)["messages"][1]
    assert message["id"] == message_id and message["status"] == "complete"
    assert copied_answer(page) == message["content"]
    assert json.loads(page.evaluate("sessionStorage.getItem('hearth.streaming')")) == {}
    assert watch.errors == []
    context.close()


def test_dropped_socket_resumes_after_the_last_delta(browser: Any, server: LiveServer,
                                                     admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=120)
    sockets: list[Any] = []
    from_page: list[dict[str, Any]] = []
    drop_after = 5

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        first = not sockets
        sockets.append(ws)
        deltas = [0]

        def to_server(message: str | bytes) -> None:
            from_page.append(json.loads(message))
            upstream.send(message)

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if first and frame["type"] == "delta":
                if deltas[0] == drop_after:
                    ws.close(code=4001, reason="test drops the connection")
                    upstream.close()
                    return
                deltas[0] += 1
            ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    page.reload()
    page.wait_for_selector("#chat-view:not([hidden])")
    send(page, LONG_PROMPT)
    page.wait_for_function("() => document.body.dataset.socket === 'reconnecting'")
    wait_answer_done(page)
    message_id = page.locator(".msg-assistant").last.get_attribute("data-id")
    resumes = [f for f in from_page if f["type"] == "resume"]
    assert resumes == [{"type": "resume", "message_id": message_id, "after": drop_after}]
    assert len(sockets) == 2
    message = stored(page)["messages"][1]
    assert copied_answer(page) == message["content"]
    assert watch.errors == []
    context.close()


def test_start_lost_with_the_socket_is_recovered(browser: Any, server: LiveServer,
                                                 admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=40)
    send(page, "What is the capital of Italy?")
    wait_answer_done(page)
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        first = not sockets
        sockets.append(ws)
        ws.on_message(lambda message: upstream.send(message))

        def to_page(message: str | bytes) -> None:
            if first and json.loads(message)["type"] == "start":
                ws.close(code=4001, reason="test drops the connection")
                upstream.close()
                return
            ws.send(message)

        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    page.reload()
    page.wait_for_selector(".msg-assistant")
    send(page, "And of Spain?")
    page.wait_for_function("() => document.querySelectorAll('#messages .msg-user').length === 2"
                           " && !document.querySelector('#messages [data-id^=local-]')")
    wait_answer_done(page)
    messages = stored(page)["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"] * 2
    assert page.locator(".msg-assistant").last.get_attribute("data-id") == messages[3]["id"]
    assert copied_answer(page) == messages[3]["content"]
    assert len(sockets) == 2
    assert watch.errors == []
    context.close()


def test_regenerate_and_edit_the_last_message(browser: Any, server: LiveServer,
                                              admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=12, temperature=1.0)
    send(page, "Say hello.")
    wait_answer_done(page)
    first_id = page.locator(".msg-assistant").last.get_attribute("data-id")
    page.locator(".msg-assistant button.regenerate").click()
    wait_answer_done(page)
    second_id = page.locator(".msg-assistant").last.get_attribute("data-id")
    assert second_id != first_id
    assert page.locator(".msg-assistant").count() == 1
    messages = stored(page)["messages"]
    assert [(m["role"], m["id"]) for m in messages][1:] == [("assistant", first_id),
                                                            ("assistant", second_id)]
    old_user = messages[0]["id"]
    page.locator(".msg-user button.edit").click()
    page.fill(".msg-user.editing textarea", "Say goodbye.")
    page.press(".msg-user.editing textarea", "Enter")
    wait_answer_done(page)
    assert page.locator(".msg-user .msg-body").all_inner_texts() == ["Say goodbye."]
    assert page.locator(".msg-assistant").count() == 1
    messages = stored(page)["messages"]
    edited = [m for m in messages if m["role"] == "user"]
    assert [(m["content"], m["parent_id"]) for m in edited] == [("Say hello.", None),
                                                                ("Say goodbye.", old_user)]
    assert watch.errors == []
    context.close()
