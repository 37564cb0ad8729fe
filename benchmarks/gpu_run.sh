#!/usr/bin/env bash
# One prepared script for a GPU machine (the device tool; see docs/gpu.md). It installs nothing: it needs
# python3 with torch (CUDA), numpy, mpmath and sympy; python-flint for the Kajitsuka-Sato rows (without it
# those rows say UNKNOWN and why). z3 and cvc5 are not needed. attncert runs from this checkout's src/.
#
#   bash benchmarks/gpu_run.sh              # everything, about 5 minutes on one H100/H200
#   GPU_CHECK_SECONDS=60 INTRINSIC_SECONDS=60 TRIANGLE_SECONDS=60 TRAIN_BATCH=512 bash benchmarks/gpu_run.sh
#
# Writes to $OUT (default /tmp/attncert-gpu): log.txt (all tables), gpu_check.json, train_intrinsic.json/.svg,
# train_triangle.json/.svg.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/attncert-gpu}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
LOG="$OUT/log.txt"
: > "$LOG"
say() { echo "$@" | tee -a "$LOG"; }
say "== attncert gpu_run.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$LOG"
$PY -c "import torch, numpy; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'numpy', numpy.__version__)" 2>&1 | tee -a "$LOG"
$PY -c "import flint; print('python-flint', flint.__version__)" 2>&1 | tail -1 | tee -a "$LOG"
DEV=${DEVICE:-cuda}
rc=0
say "== gpu-check"
$PY -m attncert.cli gpu-check --device "$DEV" --budget-seconds "${GPU_CHECK_SECONDS:-90}" --json "$OUT/gpu_check.json" --verbose 2>&1 | tee -a "$LOG" || rc=1
say "== train intrinsic-dim"
$PY -m attncert.cli train intrinsic-dim --device "$DEV" --batch "${TRAIN_BATCH:-1024}" --budget-seconds "${INTRINSIC_SECONDS:-100}" \
    --json "$OUT/train_intrinsic.json" --plot "$OUT/train_intrinsic.svg" --verbose 2>&1 | tee -a "$LOG" || rc=1
say "== train triangle-center"
$PY -m attncert.cli train triangle-center --device "$DEV" --batch "${TRAIN_BATCH:-1024}" --budget-seconds "${TRIANGLE_SECONDS:-80}" \
    --json "$OUT/train_triangle.json" --plot "$OUT/train_triangle.svg" --verbose 2>&1 | tee -a "$LOG" || rc=1
say "== done (exit $rc)"
exit $rc
