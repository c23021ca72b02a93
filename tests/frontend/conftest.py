"""Browser tests: Debian's chromium driven by Playwright against a live `hearth serve` (the real
default model, retrieval as `serve` wires it) on 127.0.0.1, one server per test module.

Screenshots go to `test-artifacts/frontend/` (or $HEARTH_TEST_ARTIFACTS); the folder ignores
itself for git. Chromium is never downloaded: tests skip, saying why, when /usr/bin/chromium
(`apt-get install -y chromium`) or the playwright package is missing.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("HEARTH_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]
SERVER_START_SECONDS = 180
PASSWORD = "correct horse battery"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives chromium against a live server")


def artifacts_dir() -> Path:
    path = Path(os.environ.get("HEARTH_TEST_ARTIFACTS", ROOT / "test-artifacts")) / "frontend"
    path.mkdir(parents=True, exist_ok=True)
    ignore = path.parent / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# test output, never committed\n*\n")
    return path


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install -y chromium)"
    try:
        from engine.loader import default_model_path

        default_model_path()
    except Exception as exc:  # the model package missing or the engine not importable
        return f"the default model is not available: {type(exc).__name__}: {exc}"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    data_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes]

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


def _wait_ready(server: LiveServer) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"hearth serve exited early:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(server.url + "/ready", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"hearth serve was not ready in {SERVER_START_SECONDS}s:\n"
                       f"{server.log_tail()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@pytest.fixture(scope="module")
def server_module() -> str:
    """The module `python -m` runs as the server; a test module may override this fixture."""
    return "app"


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           server_module: str) -> Iterator[LiveServer]:
    reason = _missing()
    if reason is not None:
        pytest.skip(reason)
    home = tmp_path_factory.mktemp("hearth-ui")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
    env.update({
        "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        "HEARTH_DATA_DIR": str(home / "data"),
        "HEARTH_SERVER__PORT": str(port),
        "HEARTH_SERVER__LOG_LEVEL": "warning",
        "HEARTH_AUTH__SCRYPT_N": "16",
        "HEARTH_ENGINE__MAX_MODEL_LEN": "1024",
        "HEARTH_ENGINE__NUM_KV_BLOCKS": "256",
        "HEARTH_CHAT__FLUSH_INTERVAL_SECONDS": "0.1",
        "HEARTH_LIMITS__MESSAGES_PER_MINUTE": "1000",
        # Small output-rail windows: answers stream in many checked deltas, as the streaming
        # and resume tests need (the 120-character default releases a short answer in a few).
        "HEARTH_GUARDRAILS__CHUNK_SIZE": "24",
        "HEARTH_GUARDRAILS__CONTEXT_SIZE": "48",
    })
    log_path = artifacts_dir() / f"server-{request.module.__name__.rsplit('.', 1)[-1]}.log"
    with log_path.open("wb") as log:
        # cwd is the temp folder so no developer's ./.env leaks into the test server.
        command = [sys.executable, "-m", server_module]
        if server_module == "app":
            command.append("serve")
        process = subprocess.Popen(command, cwd=home, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    live = LiveServer(f"http://127.0.0.1:{port}", home / "data", log_path, process)
    try:
        _wait_ready(live)
        yield live
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def browser(server: LiveServer) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def admin_name(browser: Any, server: LiveServer) -> str:
    """The module's first account (the admin), created through the sign-up form."""
    context, page, watch = new_page(browser, server)
    sign_up(page, "alice")
    assert page.is_visible("#nav-admin")
    assert page.inner_text("#whoami") == "alice (admin)"
    assert watch.errors == []
    context.close()
    return "alice"


@dataclass
class PageWatch:
    """Console errors and uncaught exceptions of a page; a CSP violation shows up here too."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))


def new_page(browser: Any, server: LiveServer, width: int = 1200, height: int = 820,
             **options: Any) -> tuple[Any, Any, PageWatch]:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, **options)
    context.set_default_timeout(20_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    return context, page, watch


def shot(page: Any, name: str) -> Path:
    path = artifacts_dir() / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def sign_up(page: Any, username: str) -> None:
    page.goto("/")
    page.fill("#auth-username", username)
    page.fill("#auth-password", PASSWORD)
    page.click("#signup-button")
    page.wait_for_selector("#chat-view:not([hidden])")


def set_params(page: Any, max_tokens: int, temperature: float = 0.0) -> None:
    """Sampling settings through the panel (stored for later sends, like a user would)."""
    page.click("#settings-toggle")
    page.fill("#max-tokens", str(max_tokens))
    page.press("#max-tokens", "Tab")
    page.eval_on_selector("#temperature", "(el, v) => { el.value = v; "
                          "el.dispatchEvent(new Event('input')); }", str(temperature))
    page.click("#settings-toggle")


def send(page: Any, text: str) -> None:
    page.fill("#composer-input", text)
    page.press("#composer-input", "Enter")


def last_answer(page: Any) -> Any:
    return page.locator(".msg-assistant").last


LAST_ANSWER_JS = "[...document.querySelectorAll('#messages .msg-assistant')].pop()"


def wait_streaming_text(page: Any, min_chars: int = 1, timeout_ms: int = 60_000) -> str:
    """Wait until the last answer is streaming and shows text; return that partial text."""
    handle = page.wait_for_function(
        f"""(n) => {{ const a = {LAST_ANSWER_JS};
        if (!a || !a.classList.contains('streaming')) return false;
        const t = a.querySelector('.msg-body').innerText.trim();
        return t.length >= n ? t : false; }}""", arg=min_chars, timeout=timeout_ms)
    return str(handle.json_value())


def wait_answer_done(page: Any, timeout_ms: int = 90_000) -> None:
    page.wait_for_function(
        f"() => {{ const a = {LAST_ANSWER_JS}; return a && !a.classList.contains('streaming') "
        "&& !a.dataset.id.startsWith('local-'); }", timeout=timeout_ms)


def api_json(page: Any, path: str) -> Any:
    """GET through the page's own session cookie."""
    response = page.request.get(path)
    assert response.ok, f"{path}: {response.status} {response.text()}"
    return response.json()


def log_in(browser: Any, server: LiveServer, username: str, **options: Any):
    context, page, watch = new_page(browser, server, **options)
    page.goto("/")
    page.fill("#auth-username", username)
    page.fill("#auth-password", PASSWORD)
    page.click("#login-button")
    page.wait_for_selector("#chat-view:not([hidden])")
    return context, page, watch


def conversation_id(page: Any) -> str:
    match = re.fullmatch(r"#/c/([A-Za-z0-9_-]+)", page.evaluate("location.hash"))
    assert match, page.evaluate("location.hash")
    return match.group(1)


def stored(page: Any) -> dict[str, Any]:
    """The conversation the page shows, as the server stored it."""
    data: dict[str, Any] = api_json(page, f"/api/conversations/{conversation_id(page)}")
    return data


def copied_answer(page: Any) -> str:
    """The raw text the page holds for the last answer, through its Copy button."""
    page.locator(".msg-assistant").last.locator(".msg-actions .copy-button").click()
    return str(page.evaluate("navigator.clipboard.readText()"))
