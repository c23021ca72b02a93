"""`python -m retrieval.evaluate [--json]`: retrieval quality and speed on this machine.

Quality: recall@k and MRR@k (k = 1, 3, 5) over the shipped corpus and questions, for dense
search and for hybrid (dense + BM25) rescoring. Speed: ingesting a 1 MB text file, and search
latency with 10k chunks in the index.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

import torch

from retrieval.bench import bench_ingest, bench_search, megabyte_text, new_retriever
from retrieval.chunking import ChunkingSettings
from retrieval.embedder import Embedder
from retrieval.quality import (
    answer_spans,
    evaluate_quality,
    ingest_corpus,
    load_questions,
)
from retrieval.retriever import RetrievalConfig
from retrieval.search import SearchSettings


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    defaults = ChunkingSettings()
    parser = argparse.ArgumentParser(prog="python -m retrieval.evaluate", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--ks", type=int, nargs="+", default=[1, 3, 5])
    parser.add_argument("--chunk-tokens", type=int, default=defaults.max_tokens)
    parser.add_argument("--chunk-overlap", type=int, default=defaults.overlap_tokens)
    parser.add_argument("--lexical-weight", type=float, default=SearchSettings().lexical_weight)
    parser.add_argument("--skip-bench", action="store_true", help="quality only")
    parser.add_argument("--ingest-bytes", type=int, default=1_000_000)
    parser.add_argument("--search-chunks", type=int, default=10_000)
    parser.add_argument(
        "--threads", type=int, default=None, help="torch intra-op threads (default: torch's)"
    )
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> dict:
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    started = time.perf_counter()
    embedder = Embedder.load()
    load_seconds = time.perf_counter() - started
    config = RetrievalConfig(
        chunking=ChunkingSettings(args.chunk_tokens, args.chunk_overlap), autosave=False
    )
    report: dict = {
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "torch_threads": torch.get_num_threads(),
            "python": sys.version.split()[0],
            # Other work on the machine skews every timing below; this says how much there was.
            "load_average_1m": round(os.getloadavg()[0], 2),
        },
        "settings": {
            "chunk_tokens": args.chunk_tokens,
            "chunk_overlap": args.chunk_overlap,
            "lexical_weight": args.lexical_weight,
        },
        "embedder_load_seconds": round(load_seconds, 3),
    }
    questions = load_questions()
    with tempfile.TemporaryDirectory() as folder:
        retriever = new_retriever(Path(folder), embedder, config)
        documents, offsets = ingest_corpus(retriever)
        spans = answer_spans(questions, documents)
        report["corpus"] = {"documents": len(documents), "chunks": len(offsets)}
        report["quality"] = {}
        for mode, settings in (
            ("dense", SearchSettings(hybrid=False)),
            ("hybrid", SearchSettings(hybrid=True, lexical_weight=args.lexical_weight)),
        ):
            result = evaluate_quality(retriever, questions, spans, offsets, args.ks, settings, mode)
            report["quality"][mode] = {
                "num_questions": result.num_questions,
                "recall": {str(k): round(v, 4) for k, v in result.recall.items()},
                "mrr": {str(k): round(v, 4) for k, v in result.mrr.items()},
                "missed": sorted(q for q, r in result.ranks.items() if r is None),
            }
    if not args.skip_bench:
        with tempfile.TemporaryDirectory() as folder:
            retriever = new_retriever(Path(folder), embedder, config)
            ingest = bench_ingest(retriever, megabyte_text(args.ingest_bytes))
            ids = sorted(retriever.catalog.ids())
            texts = retriever.catalog.texts(ids)
            vectors = retriever.index.vectors(ids)
        report["ingest"] = {**asdict(ingest), "total_seconds": round(ingest.total_seconds, 3)}
        latencies = bench_search(
            embedder, texts, vectors, [q.question for q in questions], args.search_chunks
        )
        report["search"] = [asdict(s) for s in latencies]
    return report


def _print_table(report: dict) -> None:
    print(f"machine: {report['machine']}")
    print(f"settings: {report['settings']}, embedder load {report['embedder_load_seconds']} s")
    corpus = report["corpus"]
    print(f"corpus: {corpus['documents']} documents, {corpus['chunks']} chunks")
    print()
    ks = list(next(iter(report["quality"].values()))["recall"])
    header = "mode    " + "".join(f"  R@{k:<4}" for k in ks) + "".join(f"  MRR@{k:<2}" for k in ks)
    print(header)
    for mode, q in report["quality"].items():
        cells = "".join(f"  {q['recall'][k]:<6.3f}" for k in ks)
        cells += "".join(f"  {q['mrr'][k]:<6.3f}" for k in ks)
        print(f"{mode:<8}{cells}   ({q['num_questions']} questions, missed: {q['missed']})")
    if "ingest" in report:
        ing = report["ingest"]
        print()
        print(
            f"ingest {ing['num_bytes']} bytes -> {ing['num_chunks']} chunks in "
            f"{ing['total_seconds']:.2f} s (parse+chunk {ing['parse_chunk_seconds']:.2f} s, "
            f"embed {ing['embed_seconds']:.2f} s, index {ing['index_seconds']:.3f} s)"
        )
        print()
        print(f"{'search (k=4)':<32}{'chunks':>8}{'allowed':>9}{'p50 ms':>9}{'p95 ms':>9}"
              f"{'index p50 ms':>14}")  # fmt: skip
        for s in report["search"]:
            print(f"{s['name']:<32}{s['num_chunks']:>8}{s['num_allowed']:>9}{s['p50_ms']:>9.2f}"
                  f"{s['p95_ms']:>9.2f}{s['index_p50_ms']:>14.3f}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_table(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
