"""Documents, citations, guardrail notices and the admin page in a real browser, against a live
server with the real model and retrieval and scripted guardrails (guarded_server.py), so each
guardrail action the UI must show happens exactly when the test asks for it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import (
    LiveServer,
    api_json,
    log_in,
    new_page,
    send,
    set_params,
    shot,
    sign_up,
    stored,
    wait_answer_done,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

FESTIVAL = (b"The Zorblat festival is held every year in the town of Quenby. It celebrates the "
            b"harvest of purple carrots. The festival lasts three days and ends with a lantern "
            b"parade.\n")
# No double quotes: browsers send them as %22 in multipart file names.
HOSTILE_NAME = "<img src=x onerror=window.__xss=1>festival.txt"
ADMIN = "root"


@pytest.fixture(scope="module")
def server_module() -> str:
    return "tests.frontend.guarded_server"


@pytest.fixture(scope="module")
def admin_name(browser: Any, server: LiveServer) -> str:
    context, page, watch = new_page(browser, server)
    sign_up(page, ADMIN)
    assert page.is_visible("#nav-admin")
    context.close()
    return ADMIN


def document_rows(page: Any) -> list[tuple[str, str]]:
    rows = page.locator("#document-list li.document")
    return [(rows.nth(i).locator(".doc-name").inner_text(), rows.nth(i).get_attribute(
        "data-status")) for i in range(rows.count())]


def test_upload_cite_and_delete_documents(browser: Any, server: LiveServer,
                                          admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    # Record every progress bar the upload shows (they come and go quickly on a small file).
    page.evaluate("""() => {
        window.__progress = 0;
        new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes) {
                if (n.nodeType === 1 && (n.matches('progress') || n.querySelector('progress')))
                    window.__progress += 1;
            }
        }).observe(document.querySelector('.documents'), {childList: true, subtree: true});
    }""")
    page.set_input_files("#file-input", files=[
        {"name": HOSTILE_NAME, "mimeType": "text/plain", "buffer": FESTIVAL}])
    page.wait_for_selector("#document-list li.document[data-status=ready], "
                           "#upload-list li.failed", timeout=60_000)
    failed = page.locator("#upload-list li.failed")
    assert failed.count() == 0, failed.inner_text()
    assert page.evaluate("window.__progress") >= 1
    assert document_rows(page) == [(HOSTILE_NAME, "ready")]
    # Drag and drop a second file onto the chat.
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(['Lanterns are made of paper.'], 'dropped.md',
                                {type: 'text/markdown'}));
        const target = document.querySelector('#chat-view');
        for (const type of ['dragenter', 'dragover', 'drop']) {
            target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true,
                                                      cancelable: true}));
        }
    }""")
    page.wait_for_function("() => document.querySelectorAll("
                           "'#document-list li.document[data-status=ready]').length === 2",
                           timeout=60_000)
    assert page.is_hidden("#drop-overlay")
    set_params(page, max_tokens=32)
    send(page, "Where is the Zorblat festival held?")
    wait_answer_done(page)
    answer = page.locator(".msg-assistant").last
    citation = answer.locator(".citation").first
    assert citation.locator(".citation-file").inner_text() == HOSTILE_NAME
    citation.locator("summary").click()
    assert "town of Quenby" in citation.locator(".citation-text").inner_text()
    message = stored(page)["messages"][1]
    assert message["citations"][0]["filename"] == HOSTILE_NAME
    shot(page, "citations")
    # Delete the dropped one.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#document-list li.document", has_text="dropped.md").locator(
        "button.delete").click()
    page.wait_for_function("() => document.querySelectorAll('#document-list li.document')"
                           ".length === 1")
    assert [d["filename"] for d in api_json(page, "/api/documents")["documents"]] == [
        HOSTILE_NAME]
    assert page.locator("#messages img, #sidebar img").count() == 0
    assert page.evaluate("window.__xss") is None
    assert watch.errors == []
    context.close()


def test_guardrail_actions_are_notices_and_placeholders(browser: Any, server: LiveServer,
                                                        admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    set_params(page, max_tokens=24)
    send(page, "Tell me something forbidden.")
    wait_answer_done(page)
    notice = page.locator(".msg-assistant").last.locator(".notice-blocked")
    assert notice.inner_text() == ("Blocked. Your message was blocked by the guardrails "
                                   "(scripted_input): asks for forbidden things")
    assert page.locator(".notice-error").count() == 0
    page.locator(".msg-user").last.locator(".tag").wait_for()
    assert page.locator(".msg-user").last.locator(".tag").inner_text() == "blocked"
    send(page, "Please write to bob@example.com about it.")
    wait_answer_done(page)
    # What the model saw replaces the typed text once the answer is stored.
    user = page.locator(".msg-user").last
    user.locator(".redacted").wait_for()
    assert user.locator(".msg-body").inner_text() == "Please write to [EMAIL] about it."
    assert user.locator(".redacted").inner_text() == "[EMAIL]"
    send(page, "CUTOFF Tell me a long story about the sea.")
    wait_answer_done(page)
    answer = page.locator(".msg-assistant").last
    assert answer.locator(".msg-body").inner_text().strip() != ""
    assert answer.locator(".notice-blocked").inner_text() == (
        "Blocked. The rest of this answer was withheld by the guardrails (scripted_output): "
        "withheld by test")
    messages = stored(page)["messages"]
    assert [(m["role"], m["status"]) for m in messages] == [
        ("user", "blocked"), ("assistant", "blocked"), ("user", "complete"),
        ("assistant", "complete"), ("user", "complete"), ("assistant", "blocked")]
    shot(page, "guardrails")
    # After a reload the stored states still read as notices.
    page.reload()
    page.wait_for_selector(".msg-assistant")
    assert page.locator(".notice-blocked").count() == 2
    assert page.locator(".redacted").count() == 1
    assert watch.errors == []
    context.close()


def test_admin_moderation_log_filters_pages_and_opens(browser: Any, server: LiveServer,
                                                      admin_name: str) -> None:
    context, page, watch = log_in(browser, server, admin_name)
    # 50 more blocked inputs, one after another (cheap: blocked turns never reach the
    # engine), so the log has more than one page.
    sent = page.evaluate("""() => new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        let done = 0;
        const next = () => ws.send(JSON.stringify({type: 'chat', conversation_id: null,
                                                   content: `forbidden request ${done}`}));
        ws.onmessage = (e) => {
            const f = JSON.parse(e.data);
            if (f.type === 'error') reject(new Error(f.message));
            if (f.type !== 'done') return;
            if (++done === 50) { ws.close(); resolve(done); } else next();
        };
        ws.onopen = next;
    })""")
    assert sent == 50
    page.click("#nav-admin")
    page.wait_for_selector("#events tbody tr")
    status = {k: v for k, v in zip(page.locator("#status dt").all_inner_texts(),
                                   page.locator("#status dd").all_inner_texts(), strict=True)}
    assert status["Model"] == "SmolLM2-135M-Instruct.Q4_1"
    assert status["Engine"] == "running"
    assert status["KV-cache usage"].strip().endswith("%")
    shot(page, "admin")
    rows = page.locator("#events tbody tr")
    assert rows.count() == 50  # one page of 53 events, newest first
    assert rows.first.locator("td:nth-child(2)").inner_text() == ADMIN
    assert rows.first.locator("td:nth-child(7)").inner_text() == "forbidden request 49"
    assert page.is_enabled("#events-older") and not page.is_enabled("#events-newer")
    page.click("#events-older")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 3")
    assert not page.is_enabled("#events-older") and page.is_enabled("#events-newer")
    rails = page.locator("#events tbody tr td:nth-child(4)").all_inner_texts()
    assert rails == ["scripted_output", "scripted_pii", "scripted_input"]
    excerpts = page.locator("#events tbody tr td:nth-child(7)").all_inner_texts()
    assert excerpts[1:] == ["Please write to [EMAIL] about it.", "Tell me something forbidden."]
    page.click("#events-newer")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 50")
    page.select_option("#moderation-filter select[name=stage]", "output")
    page.click("#moderation-filter button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 1")
    row = page.locator("#events tbody tr")
    assert row.locator("td:nth-child(4)").inner_text() == "scripted_output"
    page.fill("#moderation-filter input[name=rail]", "scripted_pii")
    page.select_option("#moderation-filter select[name=stage]", "")
    page.click("#moderation-filter button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 1 && "
                           "document.querySelector('#events tbody td:nth-child(4)')"
                           ".innerText === 'scripted_pii'")
    rows.first.locator("td:nth-child(2) button").click()  # only this user's events
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 1")
    assert page.input_value("#moderation-filter input[name=user_id]") == api_json(
        page, "/api/admin/moderation?limit=1")["events"][0]["user_id"]
    page.fill("#moderation-filter input[name=from]", "2999-01-01T00:00")
    page.click("#moderation-filter button[type=submit]")
    page.wait_for_selector("#events-empty:not([hidden])")
    page.click("#moderation-filter button[type=reset]")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 50")
    # Open the conversation of the first guardrail event (the blocked "forbidden" input).
    page.click("#events-older")
    page.wait_for_function("() => document.querySelectorAll('#events tbody tr').length === 3")
    page.locator("#events tbody tr", has_text="Tell me something forbidden.").locator(
        "a", has_text="Open").click()
    page.wait_for_selector("#admin-conversation:not([hidden])")
    assert page.inner_text("#admin-conv-owner").startswith(f"Owner: {ADMIN} (")
    highlighted = page.locator("#admin-conv-messages .msg.highlighted")
    assert highlighted.count() == 1 and highlighted.get_attribute("data-status") == "blocked"
    shot(page, "admin-conversation")
    assert watch.errors == []
    context.close()


def test_users_see_no_admin_page(browser: Any, server: LiveServer, admin_name: str) -> None:
    context, page, watch = new_page(browser, server)
    sign_up(page, "eve")
    assert page.is_hidden("#nav-admin")
    assert page.inner_text("#whoami") == "eve"
    page.goto("/#/admin")
    page.wait_for_selector("#chat-view:not([hidden])")
    assert page.evaluate("location.hash") == "#/"
    assert page.request.get("/api/admin/status").status == 403
    assert page.locator("#conversation-list li a").count() == 0
    assert page.inner_text("#document-list") == "No documents"
    page.click("#logout")
    page.wait_for_selector("#auth-view:not([hidden])")
    assert page.request.get("/api/conversations").status == 401
    assert watch.errors == []
    context.close()
