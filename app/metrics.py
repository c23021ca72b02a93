"""Prometheus metrics: one registry per app instance; engine figures read at scrape time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)
_ITL_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)


class EngineCollector(Collector):
    """Gauges and counters straight from `engine.stats()`, so they never drift from it."""

    def __init__(self, stats: Callable[[], Any]) -> None:
        self.stats = stats

    def collect(self) -> Iterator[Metric]:
        s = self.stats()
        yield GaugeMetricFamily(
            "hearth_num_requests_running", "Requests in the engine's running batch",
            value=s.num_running,
        )
        yield GaugeMetricFamily(
            "hearth_num_requests_waiting", "Requests waiting in the engine queue",
            value=s.num_waiting,
        )
        yield GaugeMetricFamily(
            "hearth_kv_cache_usage_ratio", "Fraction of KV cache blocks in use",
            value=s.kv_cache_usage,
        )
        counters = {
            "hearth_prompt_tokens": ("Prompt tokens processed", s.prompt_tokens_total),
            "hearth_generation_tokens": ("Tokens generated", s.generation_tokens_total),
            "hearth_prefix_cache_queries": ("Prompt tokens looked up in the prefix cache",
                                            s.prefix_cache_queries),
            "hearth_prefix_cache_hits": ("Prompt tokens found in the prefix cache",
                                         s.prefix_cache_hits),
            "hearth_num_preemptions": ("Requests preempted for KV space", s.num_preemptions),
        }
        for name, (doc, value) in counters.items():
            yield CounterMetricFamily(name, doc, value=value)


class Metrics:
    def __init__(self, engine_stats: Callable[[], Any]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.time_to_first_token = Histogram(
            "hearth_time_to_first_token_seconds", "Engine submission to first token",
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.inter_token_latency = Histogram(
            "hearth_inter_token_latency_seconds", "Time between streamed tokens",
            buckets=_ITL_BUCKETS, registry=r,
        )
        self.e2e_request_latency = Histogram(
            "hearth_e2e_request_latency_seconds", "Request accepted to last token",
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.request_queue_time = Histogram(
            "hearth_request_queue_time_seconds",
            "Request accepted to engine submission (admission, guardrails, retrieval, prompt)",
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.guardrail_events = Counter(
            "hearth_guardrail_events", "Guardrail actions", ["stage", "rail", "action"],
            registry=r,
        )
        self.guardrail_input_seconds = Histogram(
            "hearth_guardrail_input_check_seconds", "Time the input rails took on one message",
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.requests = Counter(
            "hearth_requests", "Finished generations", ["api", "finish_reason"], registry=r
        )
        r.register(EngineCollector(engine_stats))

    def render(self) -> bytes:
        return generate_latest(self.registry)
