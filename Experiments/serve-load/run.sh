#!/usr/bin/env bash
# Load check of `screenlab serve` (issue 28): 50 concurrent clients for 20 seconds against the runs
# table and against a run page, while a tiny training writes to the same registry (an epoch row
# every few seconds). Prints wrk's latency percentiles and the error counts; exits 1 on any
# socket error or non-2xx answer.
#   usage: Experiments/serve-load/run.sh [REGISTRY] [RUN_ID]   (release build; wrk from Debian)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=.build/release/screenlab
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
registry=${1:-}
if [ -z "$registry" ]; then registry=$work/runs.sqlite; cp Experiments/runs.sqlite "$registry"; fi
run=${2:-$(sqlite3 "$registry" "select id from runs where status='finished' order by started_at desc limit 1")}

# The writer: a tiny detector on 24 synthetic screens, an epoch row every few tenths of a second, until the end.
cat > "$work/model.yaml" <<YAML
architecture: {name: ui-detector, options: {head: anchor-free, width_multiplier: 0.25, fpn_channels: 16, head_convolutions: 1, distribution_bins: 8}}
input: {width: 64, height: 128}
normalization: {mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]}
YAML
cat > "$work/writer.yaml" <<YAML
data: {synthetic: {count: 24, seed: 5, screens_per_app: 3, val_fraction: 0.2, test_fraction: 0.2}}
model: $work/model.yaml
augment: $PWD/Configs/augment/default.yaml
epochs: 100000
batch_size: 4
threads: 1
workers: 1
YAML
"$bin" train "$work/writer.yaml" --runs "$work/runs" --registry "$registry" > "$work/train.log" 2>&1 &
writer=$!
"$bin" serve --registry "$registry" --port 0 > "$work/serve.log" 2>&1 &
for _ in $(seq 100); do grep -qo 'http://127.0.0.1:[0-9]*/' "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" | head -1)
# Wait until the writer has recorded its first epoch, so the 20 s overlap its writes.
epochs() { sqlite3 "$registry" "select count(*) from epochs e join runs r on r.id = e.run_id where r.experiment = 'writer'"; }
until [ "$(epochs)" -gt 0 ]; do
  kill -0 $writer 2>/dev/null || { echo "the writer training ended before its first epoch:" >&2; tail -5 "$work/train.log" >&2; exit 1; }
  sleep 0.5
done
status=0
for page in "" "runs/$run"; do
  before=$(epochs)
  echo "== GET /$page — 50 connections, 20 s (2 wrk threads) =="
  wrk -t2 -c50 -d20s --latency "$url$page" | tee "$work/wrk.txt"
  after=$(epochs)
  echo "epoch rows the training wrote meanwhile: $((after - before))"
  if grep -q "Socket errors\|Non-2xx" "$work/wrk.txt"; then status=1; fi
done
exit $status
