"""The harmful-request judge's file, and the judge itself: the chat model's first layers with
LoRA adapters merged in (models/llama_encoder.py) and a logistic head over their mean-pool.

The file (.npz, read with allow_pickle=False) holds `layers` (how many decoder layers),
`scale` (alpha / r), for every adapted matmul "{layer}.{FUSED name}" `lora.<name>.A` (r, in)
and `lora.<name>.B` (out, r), `head.weight` (H,), `head.bias` (), `head.threshold` (),
`head.gate` () (the harmful-request classifier's score below which the judge does not run,
chosen with the threshold; 0 in files from before it) and `card` (JSON: what it was trained on,
validation figures). Trained by training/train_judge.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.errors import ModelLoadError
from guardrails.models.head import LogisticHead

DEFAULT_JUDGE = Path(__file__).resolve().parent.parent / "data" / "judge_smollm2.npz"
# SmoothQuant maxima for the judge's int8 matmuls (training/calibrate_judge.py).
DEFAULT_JUDGE_SMOOTHING = DEFAULT_JUDGE.with_name("judge_smooth.npz")


@dataclass(frozen=True)
class JudgeFile:
    layers: int
    lora: dict[str, tuple[np.ndarray, np.ndarray]]  # name -> (A (r, in), B (out, r))
    scale: float
    weight: np.ndarray  # (H,)
    bias: float
    threshold: float
    card: dict
    gate: float = 0.0  # runs only on inputs the harmful-request classifier scores >= this

    @property
    def head(self) -> LogisticHead:
        return LogisticHead(self.weight, self.bias, self.threshold, self.card)

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for name, (a, b) in self.lora.items():
            # float16 halves the file; the merge rounds W + scale * B @ A once, in float64.
            arrays[f"lora.{name}.A"], arrays[f"lora.{name}.B"] = (
                a.astype(np.float16),
                b.astype(np.float16),
            )
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(
            tmp,
            layers=np.int64(self.layers),
            scale=np.float64(self.scale),
            **{"head.weight": self.weight.astype(np.float32)},
            **{"head.bias": np.float64(self.bias), "head.threshold": np.float64(self.threshold)},
            **{"head.gate": np.float64(self.gate)},
            card=np.array(json.dumps(self.card, sort_keys=True, default=str)),
            **arrays,
        )
        tmp.replace(path)  # never a half-written judge

    @classmethod
    def load(cls, path: Path) -> JudgeFile:
        if not path.is_file():
            raise ModelLoadError(f"judge file {str(path)!r} does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                names = {k[5:-2] for k in data.files if k.startswith("lora.")}
                lora = {
                    n: (
                        data[f"lora.{n}.A"].astype(np.float32),
                        data[f"lora.{n}.B"].astype(np.float32),
                    )
                    for n in sorted(names)
                }
                judge = cls(
                    int(data["layers"]),
                    lora,
                    float(data["scale"]),
                    np.asarray(data["head.weight"], dtype=np.float32),
                    float(data["head.bias"]),
                    float(data["head.threshold"]),
                    json.loads(str(data["card"])),
                    float(data["head.gate"]) if "head.gate" in data.files else 0.0,
                )
        except (OSError, KeyError, ValueError) as exc:
            raise ModelLoadError(f"cannot read judge file {str(path)!r}: {exc}") from exc
        if (
            judge.weight.ndim != 1
            or not 0.0 < judge.threshold < 1.0
            or not 0.0 <= judge.gate < 1.0
        ):
            raise ModelLoadError(
                f"judge file {str(path)!r}: head weight {judge.weight.shape}, "
                f"threshold {judge.threshold}, gate {judge.gate}"
            )
        return judge


def int8_by_default() -> bool:
    """Whether the judge runs int8 matmuls unless told: on a CPU with native bf16 (the only kind the tuned backend runs the judge on
    by default) whose int8 multiply-add takes all 8 bits of an activation
    (fbgemm_linear.int8_full_range). Measured there against bf16 alone: training/
    calibrate_judge.py and the README."""
    from guardrails.models.bf16_linear import native_bf16
    from guardrails.models.fbgemm_linear import int8_full_range

    return native_bf16() and int8_full_range()


def load_judge(
    path: Path = DEFAULT_JUDGE,
    bf16: bool | None = None,
    int8: bool | None = None,
    smoothing: Path = DEFAULT_JUDGE_SMOOTHING,
):  # type: ignore[no-untyped-def]
    """(encoder with the adapters merged, logistic head, gate) from a judge file. `int8`: None
    picks int8_by_default(); int8 matmuls are smoothed with the `smoothing` file. Otherwise
    `bf16` None picks bf16 matmuls where the CPU has native bf16."""
    from guardrails.models.llama_encoder import LlamaEncoder
    from guardrails.models.smoothing import SmoothingFile

    judge = JudgeFile.load(path)
    if int8 is None:
        int8 = int8_by_default()
    # The encoder checks the maxima's shape against its layers.
    smooth = SmoothingFile.load(smoothing) if int8 else None
    encoder = LlamaEncoder.load(
        num_layers=judge.layers,
        bf16=bf16,
        lora=judge.lora,
        lora_scale=judge.scale,
        int8=int8,
        smoothing=smooth,
    )
    if encoder.embed_tokens.shape[1] != judge.weight.shape[0]:
        raise ModelLoadError(
            f"judge head of dim {judge.weight.shape[0]} does not fit the encoder's "
            f"{encoder.embed_tokens.shape[1]}"
        )
    return encoder, judge.head, judge.gate
