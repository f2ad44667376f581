#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer) of the wire decoder, the diff applier and the window
# command parsers: the fuzz package in Fuzz/ (see Fuzz/README.md).
#
#   scripts/fuzz.sh [SECONDS_PER_FUZZER] [--merge] [FUZZER...]
#
#   SECONDS_PER_FUZZER  how long each fuzzer runs (default 60)
#   --merge             afterwards, add the new inputs that reach new coverage to Fuzz/Corpus
#                       (libFuzzer -merge=1: only inputs that add features are copied)
#   FUZZER              fuzz-wire, fuzz-diff, fuzz-words (default: all three)
#
# The first build takes several minutes; it goes to .build-fuzz (git-ignored), never .build.
# Each run writes to .build-fuzz/runs/<time>/: the new corpus entries of each fuzzer
# (corpus/<fuzzer>/), its findings (findings/<fuzzer>/crash-*, leak-*, timeout-*, oom-*) and its
# log (<fuzzer>.log). Replay a finding with `SWIFT_BACKTRACE=enable=no .build-fuzz/release/<fuzzer>
# <file>`; minimize it with `... <fuzzer> -minimize_crash=1 -runs=10000 <file>`.
#
# Environment: FUZZ_MAX_LEN (default 4096 bytes), FUZZ_TIMEOUT (seconds one input may take,
# default 10), FUZZ_RSS_MB (default 2048).
#
# Exits non-zero when any fuzzer found something, after printing a summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/system-packages.sh
# libsodium-dev and libsqlite3-dev for the package itself; libFuzzer ships with the toolchain.
concord_install_system_packages

seconds=60
merge=false
fuzzers=()
for argument in "$@"; do
  case "$argument" in
    --merge) merge=true ;;
    fuzz-wire | fuzz-diff | fuzz-words) fuzzers+=("$argument") ;;
    *[!0-9]* | "" | 0) echo "usage: scripts/fuzz.sh [SECONDS_PER_FUZZER] [--merge] [fuzz-wire|fuzz-diff|fuzz-words ...]" >&2; exit 2 ;;
    *) seconds=$argument ;;
  esac
done
[[ ${#fuzzers[@]} -eq 0 ]] && fuzzers=(fuzz-wire fuzz-diff fuzz-words)
max_len=${FUZZ_MAX_LEN:-4096}
timeout=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}

# Build. Every module, the code under test included (ConcordWire, ConcordClient, Workspace), gets
# AddressSanitizer and libFuzzer's coverage instrumentation; only the fuzz targets link libFuzzer
# (-sanitize=fuzzer in Fuzz/Package.swift). `-Xswiftc -sanitize=fuzzer` on every module does not
# build: it also reaches the host's macro plugins (CasePathsMacros), which then fail to link.
# Products one at a time: building the whole graph would also link the root's executables.
# Leak checks are off while building, as the macro plugins run under ASan too.
scratch=$root/.build-fuzz
coverage_flags=(--sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
# The same versions as the root package: its dependencies are the fuzz package's.
[[ -f Package.resolved ]] && cp Package.resolved Fuzz/Package.resolved
for fuzzer in "${fuzzers[@]}"; do
  echo "== building $fuzzer (release, ASan + libFuzzer coverage on every module)"
  ASAN_OPTIONS=detect_leaks=0 swift build --package-path Fuzz -c release --scratch-path "$scratch" \
    --product "$fuzzer" "${coverage_flags[@]}"
done
bin=$(swift build --package-path Fuzz -c release --scratch-path "$scratch" "${coverage_flags[@]}" --show-bin-path)

run=$scratch/runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$run"
echo "== this run's corpus, findings and logs: $run"

rows=()
total_findings=0
for fuzzer in "${fuzzers[@]}"; do
  corpus=$run/corpus/$fuzzer
  findings=$run/findings/$fuzzer
  log=$run/$fuzzer.log
  mkdir -p "$corpus" "$findings"
  echo "== $fuzzer: ${seconds}s"
  started=$(date +%s)
  # New inputs go to the first directory ($corpus); Fuzz/Corpus/$fuzzer seeds it, read-only.
  # LeakSanitizer is on (libFuzzer checks each input that allocates more than it frees);
  # -malloc_limit_mb makes one huge allocation an oom-* finding of its own. Swift's own crash
  # backtracer is off: it reads memory ASan guards and buries the report under one of its own.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$bin/$fuzzer" "$corpus" "Fuzz/Corpus/$fuzzer" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" -rss_limit_mb="$rss_mb" \
    -malloc_limit_mb="$rss_mb" -dict="Fuzz/Dictionaries/$fuzzer.dict" \
    -artifact_prefix="$findings/" -print_final_stats=1 -close_fd_mask=1 >"$log" 2>&1 && status=0 || status=$?
  elapsed=$(($(date +%s) - started))

  # libFuzzer's last status line: "#N DONE cov: C ft: F corp: K/SIZE ... exec/s: E rss: R".
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  executions=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | awk '{print $2}' || true)
  [[ -z "$executions" ]] && executions=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
  per_second=$(grep -oE '^stat::average_exec_per_sec: [0-9]+' "$log" | awk '{print $2}' || true)
  [[ -z "$per_second" && "$elapsed" -gt 0 ]] && per_second=$((${executions:-0} / elapsed))
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' <<<"$last" | sed -E 's/cov: ([0-9]+) ft: ([0-9]+)/\1\/\2/' || true)
  corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$last" | sed 's/corp: //' || true)
  found=$(find "$findings" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  # A fuzzer that stopped with an error and left no finding, or ran nothing, did not fuzz: that
  # is a failure too, not a clean row (a bad flag, a dictionary it cannot read, ASan not starting).
  if [[ $found -eq 0 && ( $status -ne 0 || -z "$executions" || "$executions" == 0 ) ]]; then
    echo "   DID NOT RUN (exit status $status): see $log"
    tail -n 5 "$log" | sed 's/^/   /'
    found=1
  fi
  total_findings=$((total_findings + found))
  rows+=("$fuzzer|$elapsed|${executions:-?}|${per_second:-?}|${corp:-?}|${coverage:-?}|$found")
  if [[ $found -gt 0 ]]; then
    echo "   FOUND $found: $(find "$findings" -type f -printf '%f ')"
    grep -m 3 -E 'finding|Fatal error|ERROR: (libFuzzer|AddressSanitizer)|SUMMARY' "$log" | sed 's/^/   /' || true
  fi

  if $merge && [[ $found -eq 0 ]]; then
    before=$(find "Fuzz/Corpus/$fuzzer" -type f | wc -l)
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$bin/$fuzzer" -merge=1 -max_len="$max_len" \
      -close_fd_mask=1 "Fuzz/Corpus/$fuzzer" "$corpus" >"$run/$fuzzer.merge.log" 2>&1
    echo "   merged: Fuzz/Corpus/$fuzzer $before -> $(find "Fuzz/Corpus/$fuzzer" -type f | wc -l) files"
  fi
done

echo
echo "Fuzzing summary (max_len $max_len, ASan + libFuzzer); corpus = libFuzzer's corp: files/bytes,"
echo "coverage = cov/ft of its last status line; artifacts in $run/findings"
for row in "fuzzer|seconds|executions|exec/s|corpus|cov/ft|findings" "${rows[@]}"; do
  IFS='|' read -r -a cells <<<"$row"
  printf '%-11s %8s %12s %8s %14s %12s %9s\n' "${cells[@]}"
done
if [[ $total_findings -gt 0 ]]; then
  echo "FINDINGS (or fuzzers that did not run): $total_findings (see $run/findings and the logs beside them)"
  exit 1
fi
