#!/usr/bin/env bash
# The vitest part of `make test`, in three lanes that run at the same time; A and B are each a
# vitest process with its own test stack (Kafka, FerretDB, Redis on its own ports and folder):
#   lane A: stats, bff-en, auth, metering and content (integration), then every `system` file
#           (bff-en, stats end to end, the web apps in Chromium) on the shared test system;
#   lane B: the unit and web projects, then every other service's integration files;
#   lane C: the calendar check (run-calendar-checks.sh): the unit project again under faketime at
#           the first second of a month and year and at the end of 29 February (UTC, and the
#           latter once more in Asia/Shanghai); then the performance gate (run-perf-gate.sh, with
#           a Kafka and a Redis of its own). Its CPU fills the time A and B spend waiting.
# Integration files must run one at a time on one stack (services share topics and consumer
# groups), but two stacks share nothing, and most integration time is waiting (rebalances,
# restarts, timeouts), so two lanes on two cores take ~60% of one lane's time. The split keeps
# the lanes about equal (stats' fault tests alone are ~5 minutes); a new service's tests land in
# lane B by default. Exit status: non-zero when either lane fails.
set -uo pipefail
cd "$(dirname "$0")/../.."

LANE_A_INTEGRATION=(services/stats/ services/bff-en/ services/auth/ services/metering/ services/content/)
mkdir -p var/test-output

lane() {
  local name="$1"
  shift
  # Line-buffered prefixes: the CI log stays readable with the lanes writing at once. Each
  # lane's own log is kept too, for the failure summary at the end.
  "$@" 2>&1 | tee "var/test-output/lane-$name.log" | sed -u "s/^/[lane $name] /"
  return "${PIPESTATUS[0]}"
}

# The failed tests of a lane with the first line of each error, printed last: a CI page that
# shows only the end of the log still says what broke (the lanes' lines interleave above).
failure_summary() {
  local name="$1" plain
  plain=$(sed 's/\x1b\[[0-9;]*m//g' "var/test-output/lane-$name.log")
  echo "[lane $name] failed tests:"
  awk '/^ *FAIL /{print; want=1; next} want && /(Error|expected|Timed out|timed out)/{print "    " $0; want=0}' <<<"$plain" |
    awk '!seen[$0]++' | head -n 20 | sed "s/^/[lane $name]   /"
  grep -a -E '^ *(Test Files|Tests) ' <<<"$plain" | tail -n 2 | sed "s/^/[lane $name] /"
}

lane A npx vitest run --project integration --project system "${LANE_A_INTEGRATION[@]}" frontends/ &
lane_a=$!

exclude=$(printf '%stest/**,' "${LANE_A_INTEGRATION[@]}")
TEST_STACK_DIR="${TEST_STACK_DIR_B:-$PWD/var/test-stack-b}" \
  TEST_KAFKA_PORT="${TEST_KAFKA_PORT_B:-19192}" TEST_KAFKA_CONTROLLER_PORT="${TEST_KAFKA_CONTROLLER_PORT_B:-19193}" \
  TEST_MONGO_PORT="${TEST_MONGO_PORT_B:-27118}" TEST_REDIS_PORT="${TEST_REDIS_PORT_B:-16479}" \
  TEST_SYSTEM_DIR="$PWD/var/test-system-b" TEST_SYSTEM_PORT_BASE=19350 TEST_LANE_EXCLUDE="$exclude" \
  lane B npx vitest run --project unit --project web --project integration &
lane_b=$!

lane C bash -c 'scripts/test/run-calendar-checks.sh; calendar=$?; scripts/test/run-perf-gate.sh || exit 1; exit $calendar' &
lane_c=$!

status=0
failed=()
wait "$lane_a" || failed+=(A)
wait "$lane_b" || failed+=(B)
wait "$lane_c" || failed+=(C)
if [ "${#failed[@]}" -eq 0 ]; then
  echo "vitest lanes: all passed"
else
  status=1
  echo "vitest lanes: FAILED (lane ${failed[*]}; the whole output is above, the failures below)"
  for name in "${failed[@]}"; do failure_summary "$name"; done
fi
exit "$status"
