"""Command line: `python -m engine generate "prompt"` and `python -m engine chat`."""

from __future__ import annotations

import argparse
import sys

from engine.config import EngineConfig
from engine.errors import EngineError
from engine.llm import LLM
from engine.outputs import RequestOutput
from engine.sampling_params import SamplingParams


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default="default", help="GGUF file, HF folder, 'default' or 'dummy:<shape>'")
    p.add_argument("--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"])
    p.add_argument("--device", default="auto")
    p.add_argument("--threads", type=int, default=None, help="CPU threads for torch")
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--temperature", type=float, default=0.7)
    p.add_argument("--top-p", type=float, default=0.9)
    p.add_argument("--top-k", type=int, default=0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--stop", action="append", default=[], help="stop string (repeatable)")


def _build(args: argparse.Namespace) -> tuple[LLM, SamplingParams]:
    config = EngineConfig(
        model=args.model, dtype=args.dtype, device=args.device, num_threads=args.threads
    )
    params = SamplingParams(
        max_tokens=args.max_tokens, temperature=args.temperature, top_p=args.top_p,
        top_k=args.top_k, seed=args.seed, stop=args.stop,
    )
    return LLM(config), params


def _print_delta(out: RequestOutput) -> None:
    sys.stdout.write(out.text)
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="complete one prompt, streaming to the terminal")
    _common(gen)
    gen.add_argument("prompt")
    gen.add_argument("--raw", action="store_true", help="no chat template: plain completion")
    chat = sub.add_parser("chat", help="a small terminal chat")
    _common(chat)
    chat.add_argument("--system", default=None, help="system prompt")
    args = parser.parse_args(argv)
    try:
        llm, params = _build(args)
        if args.command == "generate":
            prompt = args.prompt if args.raw else [{"role": "user", "content": args.prompt}]
            llm.generate([prompt], params, on_output=_print_delta)
            print()
            return 0
        return _chat(llm, params, args.system)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _chat(llm: LLM, params: SamplingParams, system: str | None) -> int:
    messages: list[dict[str, str]] = []
    if system:
        messages.append({"role": "system", "content": system})
    print("Hearth chat: type a message, an empty line or Ctrl-D to quit.")
    while True:
        try:
            text = input("> ").strip()
        except EOFError:
            print()
            return 0
        if not text:
            return 0
        messages.append({"role": "user", "content": text})
        result = llm.generate([messages], params, on_output=_print_delta)[0]
        print(f"\n[{len(result.token_ids)} tokens, {result.num_cached_tokens} from the prefix cache]")
        messages.append({"role": "assistant", "content": result.text})


if __name__ == "__main__":
    raise SystemExit(main())
