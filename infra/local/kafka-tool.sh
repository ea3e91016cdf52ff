#!/usr/bin/env bash
# Runs a Kafka 3.9.1 command-line tool from the jars installed by `stack.sh install kafka`,
# against the local broker (adds --bootstrap-server 127.0.0.1:$KAFKA_PORT unless given).
#
#   infra/local/kafka-tool.sh topics --list
#   infra/local/kafka-tool.sh topics --create --topic demo --partitions 3
#   infra/local/kafka-tool.sh consumer-groups --list
#   infra/local/kafka-tool.sh console-consumer --topic demo --from-beginning
#   infra/local/kafka-tool.sh console-producer --topic demo
#   infra/local/kafka-tool.sh api-versions
#   infra/local/kafka-tool.sh class <main class> [args]   (anything else on the classpath)
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
# shellcheck source=kafka.sh
source "$HERE/kafka.sh"

usage() {
  sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
  exit "$1"
}

tool=${1:-}
(($#)) || usage 2 >&2
shift
bootstrap=1
case $tool in
  topics) main=org.apache.kafka.tools.TopicCommand ;;
  consumer-groups) main=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
  console-consumer) main=org.apache.kafka.tools.consumer.ConsoleConsumer ;;
  console-producer) main=kafka.tools.ConsoleProducer ;;
  api-versions) main=kafka.admin.BrokerApiVersionsCommand ;;
  class)
    (($#)) || usage 2 >&2
    main=$1
    shift
    bootstrap=0
    ;;
  -h | --help | help) usage 0 ;;
  *)
    printf 'kafka-tool: unknown tool %s\n' "$tool" >&2
    usage 2 >&2
    ;;
esac

kafka_installed || { printf 'kafka-tool: Kafka is not installed; run infra/local/stack.sh install kafka\n' >&2; exit 1; }
find_java || { printf 'kafka-tool: java 17+ not found\n' >&2; exit 1; }

args=("$@")
if ((bootstrap)) && [[ " $* " != *" --bootstrap-server "* ]]; then
  args=(--bootstrap-server "127.0.0.1:$KAFKA_PORT" "$@")
fi

exec "$KAFKA_JAVA" -Xmx256m -Dlog4j.configuration="file:$LOCAL_DIR/kafka/tools-log4j.properties" \
  -cp "$KAFKA_HOME/libs/*" "$main" "${args[@]}"
