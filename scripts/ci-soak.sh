#!/usr/bin/env bash
# CI soak (issue 27, item 9): runs CI as CI runs it, N times in a row, on a fresh clone, with a
# CPU-heavy process beside it, and says how long each run took. Not run by CI; a person runs it
# when a change could make CI depend on the machine's speed.
#
#   flock /tmp/heavy.lock bash scripts/ci-soak.sh [N]     # N runs, default 3
#
# Take the machine-wide lock around it on a shared machine (it runs every heavy suite N times);
# the script does not take it itself, so that it never waits on a lock its caller holds.
#
# Environment:
#   CI_SOAK_REPO          the repository to clone (default /work/main); its ../shared (the service
#                         spec) is linked next to the clone, where the layout expects it
#   CI_SOAK_LOAD_SECONDS  the most the background load may run (default 14400); it is stopped when
#                         the runs end, whatever happens
#
# Exit: 0 when every run passed, 1 when any failed, 2 on bad usage. Each run's log is kept (the
# folder is printed at the end); the clone too when a run failed.
set -uo pipefail

runs=${1:-3}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [N]  (N runs, a positive whole number; default 3)" >&2
  exit 2
fi
repo=${CI_SOAK_REPO:-/work/main}
load_seconds=${CI_SOAK_LOAD_SECONDS:-14400}
shared="$(cd "$repo/.." && pwd)/shared"

work=$(mktemp -d "${TMPDIR:-/tmp}/ci-soak.XXXXXX")
load_pid=
stop_load() {
  # Only the process this script started, by its id: `timeout` passes the signal on to node.
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null
    wait "$load_pid" 2>/dev/null
    load_pid=
  fi
}
trap stop_load EXIT
trap 'exit 130' INT TERM

echo "ci-soak: cloning $repo into $work/main"
git clone -q "$repo" "$work/main" || exit 1
# The project's layout keeps the service spec in ../shared/spec, next to the repository (the
# emulator cites it): the clone gets the same neighbour.
if [ -d "$shared" ]; then
  ln -s "$shared" "$work/shared"
else
  echo "ci-soak: $shared does not exist; the clone has no ../shared" >&2
fi
echo "ci-soak: commit $(git -C "$work/main" rev-parse --short HEAD): $(git -C "$work/main" log -1 --format=%s)"

# One core kept busy for the whole soak (on 2 cores, half the machine), bounded by `timeout`.
timeout "$load_seconds" node -e 'for (;;) {}' &
load_pid=$!
echo "ci-soak: background load started (pid $load_pid, at most $load_seconds s)"

failed=0
results=()
for i in $(seq 1 "$runs"); do
  log="$work/run-$i.log"
  echo "ci-soak: run $i of $runs started at $(date +%T), log $log"
  start=$(date +%s)
  (cd "$work/main" && CI=true bash .ci/run </dev/null) >"$log" 2>&1
  code=$?
  seconds=$(($(date +%s) - start))
  results+=("run $i: exit $code, $seconds s")
  echo "ci-soak: run $i: exit $code, $seconds s"
  if [ "$code" -ne 0 ]; then
    failed=1
    echo "ci-soak: the end of run $i's log:"
    tail -n 40 "$log" | sed 's/^/  | /'
  fi
done

stop_load
echo
echo "ci-soak: $runs run(s) of CI=true bash .ci/run on a fresh clone, one core busy beside them:"
printf '  %s\n' "${results[@]}"
if [ "$failed" -ne 0 ]; then
  echo "ci-soak: FAILED; the clone and the logs are kept in $work"
  exit 1
fi
rm -rf "$work/main"
echo "ci-soak: all passed; the logs are in $work"
