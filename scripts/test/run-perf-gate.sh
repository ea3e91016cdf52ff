#!/usr/bin/env bash
# The performance gate of `make test` (scripts/bench/perf-gate.ts): a Kafka and a Redis of its
# own (its own ports and folder, like the test lanes' stacks, so it runs beside them), the gate's
# benchmarks against them, the two stopped again. Needs make build and make dataset.
# Log: var/test-output/perf-gate.log. Exit status: the gate's.
set -uo pipefail
cd "$(dirname "$0")/../.."

export IPDATA_STACK_DIR="${TEST_STACK_DIR_GATE:-$PWD/var/test-stack-gate}"
export KAFKA_PORT="${TEST_KAFKA_PORT_GATE:-19292}" KAFKA_CONTROLLER_PORT="${TEST_KAFKA_CONTROLLER_PORT_GATE:-19293}"
export REDIS_PORT="${TEST_REDIS_PORT_GATE:-16579}"
mkdir -p var/test-output

trap 'bash infra/local/stack.sh down kafka redis >/dev/null 2>&1' EXIT
STACK_FRESH=1 bash infra/local/stack.sh up kafka redis || exit 1
node --conditions=source --import tsx scripts/bench/perf-gate.ts 2>&1 | tee var/test-output/perf-gate.log
exit "${PIPESTATUS[0]}"
