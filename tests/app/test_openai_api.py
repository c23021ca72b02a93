"""/v1 with the official `openai` package against a live uvicorn server."""

from __future__ import annotations

import httpx
import openai
import pytest

from tests.app.fakes import FakeEngine


def _token(base: str, username: str = "alice") -> str:
    r = httpx.post(f"{base}/api/auth/signup", json={"username": username,
                                                   "password": "correct horse"})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def test_models_and_completion(live_server, fake_engine: FakeEngine) -> None:
    base = live_server()
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=_token(base), max_retries=0)
    assert [m.id for m in client.models.list()] == ["fake-model"]
    messages = [{"role": "system", "content": "Be terse."},
                {"role": "user", "content": "hello"}]
    first = client.chat.completions.create(model="fake-model", messages=messages)
    assert first.choices[0].message.content == "You said: hello"
    assert first.choices[0].finish_reason == "stop"
    assert first.usage.prompt_tokens == len(fake_engine.prompts[0])
    assert first.usage.completion_tokens == 16
    assert first.usage.total_tokens == first.usage.prompt_tokens + 16
    assert first.usage.prompt_tokens_details.cached_tokens == 0
    again = client.chat.completions.create(model="fake-model", messages=messages)
    assert again.usage.prompt_tokens_details.cached_tokens == (
        len(fake_engine.prompts[0]) - 1) // 16 * 16


def test_streaming_with_usage(live_server) -> None:
    base = live_server()
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=_token(base), max_retries=0)
    stream = client.chat.completions.create(
        model="fake-model", messages=[{"role": "user", "content": "stream me"}], stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "You said: stream me"
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finishes[-1] == "stop" and set(finishes[:-1]) == {None}
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 20


def test_sampling_params_are_mapped(live_server, fake_engine: FakeEngine) -> None:
    base = live_server()
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=_token(base), max_retries=0)
    out = client.chat.completions.create(
        model="fake-model", messages=[{"role": "user", "content": "params"}], max_tokens=5,
        temperature=0.3, top_p=0.9, seed=7, presence_penalty=0.5, frequency_penalty=-0.5,
    )
    assert out.choices[0].message.content == "You s" and out.choices[0].finish_reason == "length"
    p = fake_engine.params[-1]
    assert (p.max_tokens, p.temperature, p.top_p, p.seed) == (5, 0.3, 0.9, 7)
    assert (p.presence_penalty, p.frequency_penalty) == (0.5, -0.5)
    out = client.chat.completions.create(
        model="fake-model", messages=[{"role": "user", "content": "params"}], stop=["said"])
    assert out.choices[0].message.content == "You " and fake_engine.params[-1].stop == ["said"]


def test_errors(live_server) -> None:
    base = live_server()
    bad = openai.OpenAI(base_url=f"{base}/v1", api_key="hth_wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        bad.models.list()
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=_token(base), max_retries=0)
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": "x" * 5000}])
    assert info.value.body["code"] == "context_length_exceeded"
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(model="fake-model", messages=[], temperature=0.5)
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": "x"}], temperature=9)


def test_conversations_are_stored_only_when_the_setting_says_so(
    live_server, make_settings
) -> None:
    for store, expected in ((False, 0), (True, 1)):
        base = live_server(make_settings(openai={"store_conversations": store}))
        token = _token(base, f"user{int(store)}")
        client = openai.OpenAI(base_url=f"{base}/v1", api_key=token, max_retries=0)
        client.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": "keep?"}])
        listed = httpx.get(f"{base}/api/conversations",
                           headers={"Authorization": f"Bearer {token}"}).json()
        assert len(listed["conversations"]) == expected
        if expected:
            cid = listed["conversations"][0]["id"]
            conv = httpx.get(f"{base}/api/conversations/{cid}",
                             headers={"Authorization": f"Bearer {token}"}).json()
            assert [(m["role"], m["content"]) for m in conv["messages"]] == [
                ("user", "keep?"), ("assistant", "You said: keep?")]
