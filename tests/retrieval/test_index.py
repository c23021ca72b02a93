"""The FAISS index: add/remove/search by chunk id, filtering, persistence and repair."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest

from retrieval import index_file
from retrieval.errors import InvalidSettingError, VectorIndexError
from retrieval.index import INDEX_FILENAME, IndexSettings, VectorIndex, load_or_rebuild

DIM = 8
KINDS = ["flat", "hnsw"]


def unit_vectors(n: int, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def make_index(kind: str, ids: range, seed: int = 0, **kw: int) -> tuple[VectorIndex, np.ndarray]:
    index = VectorIndex(DIM, IndexSettings(kind=kind, **kw))
    vectors = unit_vectors(len(ids), seed)
    index.add(list(ids), vectors)
    return index, vectors


def brute_force(vectors: np.ndarray, ids: list[int], query: np.ndarray, k: int) -> list[int]:
    scores = vectors @ query
    order = sorted(range(len(ids)), key=lambda i: (-scores[i], ids[i]))
    return [ids[i] for i in order[:k]]


@pytest.mark.parametrize("kind", KINDS)
def test_search_finds_the_vector_itself_first(kind: str) -> None:
    index, vectors = make_index(kind, range(100, 300))
    hits = index.search(vectors[42], k=3)
    assert hits[0][0] == 142
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert [h[0] for h in hits] == brute_force(vectors, list(range(100, 300)), vectors[42], 3)


@pytest.mark.parametrize("kind", KINDS)
def test_removed_ids_never_come_back(kind: str) -> None:
    index, vectors = make_index(kind, range(100))
    assert index.remove([5, 6, 7, 999]) == 3
    assert len(index) == 97 and 5 not in index
    for q in (5, 6, 7):
        found = [cid for cid, _ in index.search(vectors[q], k=100)]
        assert len(found) == 97
        assert not {5, 6, 7} & set(found)
    assert index.remove([5]) == 0


def test_hnsw_compacts_after_many_removals_and_can_readd() -> None:
    index, vectors = make_index("hnsw", range(40))
    index.remove(range(12))  # 30% tombstoned: the graph is rebuilt without them
    assert index._faiss.ntotal == 28 and not index._deleted
    index.remove([20])
    assert index._deleted == {20}
    index.add([20], vectors[20:21])  # an id coming back
    assert index.search(vectors[20], k=1)[0][0] == 20
    assert len(index) == 28


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("exact_max", [0, 4096])  # through FAISS's IDSelector / exact scoring
def test_filtered_search_is_complete_even_for_the_worst_matches(kind: str, exact_max: int) -> None:
    ids = list(range(1000, 1600))
    index, vectors = make_index(kind, range(1000, 1600), exact_search_max_ids=exact_max)
    query = vectors[0]
    # The allowed ids are the ones least like the query: a post-hoc filter on a top-k list
    # would find none of them.
    worst = brute_force(-vectors, ids, query, 5)
    hits = index.search(query, k=10, allowed=worst + [5])  # 5 is not in the index
    assert sorted(cid for cid, _ in hits) == sorted(worst)
    assert [cid for cid, _ in hits] == brute_force(
        vectors[[i - 1000 for i in worst]], worst, query, 5
    )


@pytest.mark.parametrize("kind", KINDS)
def test_empty_allowed_set_or_empty_index_gives_nothing(kind: str) -> None:
    index, vectors = make_index(kind, range(10))
    assert index.search(vectors[0], k=3, allowed=[]) == []
    assert VectorIndex(DIM, IndexSettings(kind=kind)).search(vectors[0], k=3) == []


def test_bad_calls_raise_typed_errors() -> None:
    index, vectors = make_index("flat", range(10))
    with pytest.raises(VectorIndexError, match="already indexed: \\[3\\]"):
        index.add([3], vectors[:1])
    with pytest.raises(VectorIndexError, match="duplicate chunk ids"):
        index.add([50, 50], vectors[:2])
    with pytest.raises(
        VectorIndexError, match="expected vectors of shape \\(2, 8\\), got \\(1, 8\\)"
    ):
        index.add([50, 51], vectors[:1])
    with pytest.raises(VectorIndexError, match="NaN"):
        index.add([50], np.full((1, DIM), np.nan, dtype=np.float32))
    with pytest.raises(VectorIndexError, match="query has dimension 3, expected 8"):
        index.search(np.ones(3), k=1)
    with pytest.raises(VectorIndexError, match="k must be positive, got 0"):
        index.search(vectors[0], k=0)
    with pytest.raises(VectorIndexError, match="not in the index: \\[77\\]"):
        index.vectors([1, 77])
    with pytest.raises(InvalidSettingError, match="index kind must be one of"):
        IndexSettings(kind="ivf-pq")


@pytest.mark.parametrize("kind", KINDS)
def test_save_and_load_round_trip(kind: str, tmp_path: Path) -> None:
    index, vectors = make_index(kind, range(50))
    index.remove([3])
    index.save(tmp_path)
    loaded = VectorIndex.load(tmp_path, DIM, IndexSettings(kind=kind))
    assert loaded.ids() == index.ids()
    assert loaded.search(vectors[9], k=5) == index.search(vectors[9], k=5)
    np.testing.assert_allclose(loaded.vectors([10, 11]), vectors[10:12], atol=1e-6)


def test_atomic_save_leaves_only_the_index_file(tmp_path: Path) -> None:
    index, _ = make_index("flat", range(20))
    for _ in range(3):
        index.save(tmp_path)
    assert os.listdir(tmp_path) == [INDEX_FILENAME]


def test_failed_save_keeps_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch) -> None:
    index, _ = make_index("flat", range(20))
    index.save(tmp_path)
    before = (tmp_path / INDEX_FILENAME).read_bytes()
    index.remove([1])

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(index_file.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        index.save(tmp_path)
    assert os.listdir(tmp_path) == [INDEX_FILENAME]
    assert (tmp_path / INDEX_FILENAME).read_bytes() == before


class Fetcher:
    """Plays the database: vectors by chunk id, counting what it was asked for."""

    def __init__(self, vectors_by_id: dict[int, np.ndarray]) -> None:
        self.vectors_by_id = vectors_by_id
        self.fetched: list[int] = []

    def __call__(self, ids: list[int]) -> np.ndarray:
        self.fetched.extend(ids)
        return np.stack([self.vectors_by_id[i] for i in ids])


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, Fetcher]:
    index, vectors = make_index("flat", range(1, 31))
    index.save(tmp_path)
    return tmp_path, Fetcher({i + 1: vectors[i] for i in range(30)})


def test_unchanged_index_is_loaded_without_fetching(saved: tuple[Path, Fetcher]) -> None:
    folder, fetch = saved
    index, report = load_or_rebuild(folder, range(1, 31), fetch, DIM)
    assert (report.status, report.num_added, report.num_removed) == ("loaded", 0, 0)
    assert fetch.fetched == [] and len(index) == 30


def test_missing_file_is_rebuilt_from_the_database(saved: tuple[Path, Fetcher]) -> None:
    folder, fetch = saved
    (folder / INDEX_FILENAME).unlink()
    index, report = load_or_rebuild(folder, range(1, 31), fetch, DIM)
    assert (report.status, report.num_added) == ("rebuilt", 30)
    assert sorted(fetch.fetched) == list(range(1, 31))
    assert index.search(fetch.vectors_by_id[7], k=1)[0][0] == 7
    assert (folder / INDEX_FILENAME).exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # torn write
        lambda b: b[:-40] + bytes(40),  # zeroed tail
        lambda b: b"garbage" + b[7:],  # bad magic
        lambda b: b[:20] + b"{" + b[21:],  # broken header
    ],
)
def test_corrupted_file_is_rebuilt(saved: tuple[Path, Fetcher], damage) -> None:
    folder, fetch = saved
    path = folder / INDEX_FILENAME
    path.write_bytes(damage(path.read_bytes()))
    index, report = load_or_rebuild(folder, range(1, 31), fetch, DIM)
    assert report.status == "rebuilt"
    assert index.ids() == set(range(1, 31))
    # The rebuilt file is sound again.
    assert load_or_rebuild(folder, range(1, 31), fetch, DIM)[1].status == "loaded"


def test_id_set_differing_from_the_database_is_repaired(saved: tuple[Path, Fetcher]) -> None:
    folder, fetch = saved
    fetch.vectors_by_id.update({31: unit_vectors(1, 9)[0], 32: unit_vectors(1, 10)[0]})
    expected = set(range(3, 33))  # 1 and 2 deleted from the database, 31 and 32 added
    index, report = load_or_rebuild(folder, expected, fetch, DIM)
    assert (report.status, report.num_added, report.num_removed) == ("repaired", 2, 2)
    assert fetch.fetched == [31, 32]
    assert index.ids() == expected
    assert VectorIndex.load(folder, DIM).ids() == expected


def test_index_of_other_settings_is_rebuilt(saved: tuple[Path, Fetcher]) -> None:
    folder, fetch = saved
    _, report = load_or_rebuild(folder, range(1, 31), fetch, DIM, IndexSettings(kind="hnsw"))
    assert report.status == "rebuilt" and "expected hnsw" in report.reason


def test_wrong_shape_from_fetch_vectors_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(VectorIndexError, match="fetch_vectors returned shape \\(1, 8\\)"):
        load_or_rebuild(tmp_path, [1, 2], lambda ids: unit_vectors(1), DIM)


@pytest.mark.parametrize("kind", KINDS)
def test_concurrent_adds_removes_and_searches(kind: str) -> None:
    index = VectorIndex(DIM, IndexSettings(kind=kind, exact_search_max_ids=50))
    vectors = unit_vectors(800, 3)
    errors: list[BaseException] = []

    def writer(offset: int) -> None:
        try:
            for start in range(offset, offset + 200, 20):
                index.add(list(range(start, start + 20)), vectors[start : start + 20])
                index.remove([start])
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    def reader() -> None:
        try:
            for i in range(200):
                allowed = range(0, 800, 3) if i % 2 else None
                hits = index.search(vectors[i], k=5, allowed=allowed)
                assert len(hits) <= 5
                assert all(0 <= cid < 800 for cid, _ in hits)
                if allowed is not None:
                    assert all(cid % 3 == 0 for cid, _ in hits)
                assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(o,)) for o in (0, 200, 400, 600)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert index.ids() == {i for i in range(800) if i % 20}
