#!/usr/bin/env bash
# The calendar check of `make test`: the `unit` project run again under Debian's faketime
# (scripts/test/install-faketime.sh) at the instants where date logic breaks:
#   month-start-utc     2027-01-01T00:00:01Z, TZ=UTC            the first second of a month and a year
#   leap-day-utc        2028-02-29T23:59:40Z, TZ=UTC            the run crosses into 1 March
#   leap-day-shanghai   2028-02-29T23:59:40Z, TZ=Asia/Shanghai  face A's zone, where it is already
#                       1 March 07:59: a local getter where a UTC one belongs shows up here
# (month-start-shanghai, 2027-01-01T00:00:01Z in Asia/Shanghai, runs when named: there the local
# date is the UTC date, so by default it adds nothing the UTC run does not check.)
# The faked clock starts at the instant and runs on (each test process starts there); the
# monotonic clock stays real, so timers and timeouts behave. One module graph per worker
# (--no-isolate, as the integration projects run) keeps a run near a third of the isolated one.
# A test that passes on today's date but not at these instants reads the real clock where it
# should take its time from a ManualClock or from the instant the code used.
#
#   scripts/test/run-calendar-checks.sh [name ...]   (default: the three above)
#
# Logs: var/test-output/calendar-<name>.log. Exit status: non-zero when any check fails.
set -uo pipefail
cd "$(dirname "$0")/../.."

declare -A INSTANT=(
  [month-start-utc]='2027-01-01 00:00:01 UTC'
  [month-start-shanghai]='2027-01-01 00:00:01 UTC'
  [leap-day-utc]='2028-02-29 23:59:40 UTC'
  [leap-day-shanghai]='2028-02-29 23:59:40 UTC'
)
declare -A ZONE=(
  [month-start-utc]=UTC
  [month-start-shanghai]=Asia/Shanghai
  [leap-day-utc]=UTC
  [leap-day-shanghai]=Asia/Shanghai
)
ORDER=(month-start-utc leap-day-utc leap-day-shanghai)

names=("$@")
[ "${#names[@]}" -gt 0 ] || names=("${ORDER[@]}")
mkdir -p var/test-output

# faketime reads its start time in the process's own zone: the UTC instant written in that zone.
faked() {
  local name=$1
  shift
  local zone=${ZONE[$name]} start
  start=$(TZ=$zone date -d "${INSTANT[$name]}" '+%Y-%m-%d %H:%M:%S')
  TZ=$zone FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "@$start" "$@"
}

failed=()
for name in "${names[@]}"; do
  [ -n "${INSTANT[$name]:-}" ] || {
    echo "calendar check: unknown check $name (known: ${!INSTANT[*]})"
    exit 2
  }
  # The check is worthless if node does not see the faked instant: say so and fail.
  expected=$(date -u -d "${INSTANT[$name]}" '+%s')
  seen=$(faked "$name" node -e 'process.stdout.write(String(Math.floor(Date.now() / 1000)))')
  if [ $((seen - expected)) -lt 0 ] || [ $((seen - expected)) -gt 5 ]; then
    echo "calendar check $name: node saw $(date -u -d "@$seen" +%FT%TZ), not ${INSTANT[$name]}"
    failed+=("$name")
    continue
  fi
  log="var/test-output/calendar-$name.log"
  started=$(date +%s)
  if faked "$name" npx vitest run --project unit --no-isolate --reporter dot >"$log" 2>&1; then
    result=passed
  else
    result=FAILED
    failed+=("$name")
  fi
  echo "calendar check $name (${INSTANT[$name]}, TZ=${ZONE[$name]}): $result in $(($(date +%s) - started)) s (log $log)"
  if [ "$result" = FAILED ]; then
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -a -E '^ *FAIL |AssertionError|Error:' | awk '!seen[$0]++' | head -n 20 | sed "s/^/  /"
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "calendar checks: FAILED (${failed[*]})"
  exit 1
fi
echo "calendar checks: all passed"
