# The two commands: `make up` (install what is missing, build, start the local stack) and
# `make test` (lint, unit and integration tests against a real stack started for the run).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

NODE_MODULES_STAMP := node_modules/.package-lock.json
PACKAGE_JSONS := package.json $(wildcard proto/package.json services/*/package.json frontends/*/package.json)
PROTO_SOURCES := $(shell find proto/ipdata -name '*.proto' 2>/dev/null) proto/buf.yaml proto/buf.gen.yaml
PROTO_STAMP := proto/gen/.stamp
# Every contract with its imports (google/protobuf/*) as one FileDescriptorSet, for gRPC reflection.
PROTO_DESCRIPTORS := gen/descriptors.binpb
STACK := infra/local/stack.sh
SERVICES := infra/local/services.sh
TSX := node --conditions=source --import tsx
IPDATA_CACHE_DIR ?= $(HOME)/.cache/ipdata
export IPDATA_CACHE_DIR

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

# patches/: fixes to installed packages that npm ci applies (postinstall: patch-package).
$(NODE_MODULES_STAMP): package-lock.json $(PACKAGE_JSONS) $(wildcard patches/*.patch)
	@command -v node >/dev/null || { echo "node is missing: install Node.js 20 (see README)"; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

.PHONY: deps
deps: $(NODE_MODULES_STAMP) ## install npm packages (npm ci) when package-lock.json changed

$(PROTO_STAMP): $(NODE_MODULES_STAMP) $(PROTO_SOURCES)
	cd proto && npx buf generate && npx buf build -o $(PROTO_DESCRIPTORS)
	@touch $@

.PHONY: proto
proto: $(NODE_MODULES_STAMP) ## regenerate TypeScript from proto/ (ts-proto via buf) and the descriptor set gRPC reflection serves
	cd proto && npx buf generate && npx buf build -o $(PROTO_DESCRIPTORS)
	@touch $(PROTO_STAMP)

.PHONY: proto-baseline
proto-baseline: $(NODE_MODULES_STAMP) ## approve the current contracts as the breaking-change baseline
	cd proto && npx buf build -o breaking-baseline.json

.PHONY: build
build: $(PROTO_STAMP) ## compile every workspace package to dist/ (tsc -b) and the web apps (vite build)
	npx tsc -b
	npm run build --silent -w @ipdata/frontend-cn
	npm run build --silent -w @ipdata/frontend-en

.PHONY: lint
lint: $(PROTO_STAMP) ## buf lint + breaking check, type check, ESLint, format check
	cd proto && npx buf lint && npx buf breaking --against breaking-baseline.json
	npx tsc -p tsconfig.check.json
	npx tsc -p frontends/kit/tsconfig.json
	npx tsc -p frontends/cn/tsconfig.json
	npx tsc -p frontends/en/tsconfig.json
	npx eslint . --max-warnings 0
	npx prettier --check . --log-level warn

.PHONY: dataset
dataset: $(PROTO_STAMP) ## build the dataset from the source packages into var/datasets/<version> (skipped when built)
	@# var/datasets points into the cache, so a fresh clone on the same machine reuses a build of the same inputs.
	@mkdir -p var "$(IPDATA_CACHE_DIR)/datasets"
	@[ -e var/datasets ] || ln -s "$(IPDATA_CACHE_DIR)/datasets" var/datasets
	$(TSX) services/dataset/src/main.ts

# k8s/render: kustomize and the Kubernetes API types in Go (modules from the Go proxy, cached by Go).
K8S_RENDER := var/tools/k8s-render
$(K8S_RENDER): k8s/render/main.go k8s/render/go.mod k8s/render/go.sum
	@command -v go >/dev/null || { echo "go is missing: install Go 1.26 (see README)"; exit 1; }
	cd k8s/render && CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -buildvcs=false -o ../../$(K8S_RENDER) .

.PHONY: k8s
k8s: $(K8S_RENDER) ## render the Kubernetes overlays into var/k8s/ (kustomize), every built-in resource decoded strictly
	@cd k8s/render && unformatted=$$(gofmt -l .) && [ -z "$$unformatted" ] || { echo "gofmt: $$unformatted"; exit 1; }
	cd k8s/render && GOFLAGS=-mod=readonly go vet .
	$(K8S_RENDER) -out var/k8s k8s/overlays/dev k8s/overlays/prod

.PHONY: image-check
image-check: ## the container image's build (infra/image) without Docker: a clean tree built, pruned, every service loaded from it
	infra/image/check.sh

.PHONY: test
test: lint build dataset k8s ## everything: lint, build, unit and integration tests (starts and stops the test stack)
	$(STACK) install
	scripts/test/install-mmdb-readers.sh
	scripts/test/install-probe-tools.sh
	scripts/test/install-pdf-tools.sh
	scripts/test/install-chromium.sh
	scripts/test/install-faketime.sh
	scripts/test/install-prometheus.sh
	scripts/test/run-vitest-lanes.sh

.PHONY: test-calendar
test-calendar: ## the unit tests under faketime at 2027-01-01T00:00:01Z and 2028-02-29T23:59:40Z (UTC; the latter also Asia/Shanghai); part of make test
	scripts/test/install-faketime.sh
	scripts/test/run-calendar-checks.sh

.PHONY: bench
bench: build dataset ## lookup engine benchmark (JSON lines; medians and ratios against maxmind and gRPC baselines)
	$(TSX) scripts/bench/lookup-engine.bench.ts --runs 3

.PHONY: bench-api
bench-api: build dataset ## public API benchmark: wrk on bff-en vs node:http, Express, a maxmind peer (needs make stack-up; JSON lines)
	scripts/bench/install-tools.sh
	$(TSX) scripts/bench/public-api.bench.ts --runs 3 $(BENCH_ARGS)

.PHONY: bench-tail
bench-tail: build dataset ## GET /v1/ip's open-loop tail: bff-en with accounting on and off at a fixed rate; slow-answer bursts, stalls, GC, thread CPU (needs make stack-up; JSON lines)
	scripts/bench/install-tools.sh
	$(TSX) scripts/bench/open-loop-tail.bench.ts $(BENCH_ARGS)

.PHONY: bench-render
bench-render: build dataset ## POST /v1/batch's stages in one process (engine encoding, bff-en decoding and JSON) beside the general JSON way (JSON lines)
	node --import tsx scripts/bench/batch-render.bench.ts $(BENCH_ARGS)

.PHONY: perf-gate
perf-gate: build dataset ## the performance gate of make test: benchmark ratios against perf-gate.json (starts its own Kafka and Redis)
	$(STACK) install
	scripts/test/run-perf-gate.sh

.PHONY: bench-quota
bench-quota: ## what a quota reservation costs Redis: PING vs one reservation per script call vs 50 in one (needs make stack-up; JSON lines)
	$(TSX) scripts/bench/quota-redis.bench.ts $(BENCH_ARGS)

.PHONY: bench-lighthouse
bench-lighthouse: ## Lighthouse performance/accessibility of a face's key pages on Debian's Chromium (needs make up; SITE=a|b, BASE=, PATHS=, RUNS=)
	scripts/test/install-chromium.sh
	$(TSX) scripts/bench/lighthouse.bench.ts --site $(or $(SITE),a) $(if $(BASE),--base $(BASE)) $(if $(PATHS),--paths $(PATHS)) --runs $(or $(RUNS),3)

.PHONY: db-update
db-update: ## download/refresh databases like geoipupdate (KEY or IPDATA_API_KEY; DB="complete/mmdb asn/csv"; DIR=var/databases; BASE_URL)
	@mkdir -p $(or $(DIR),var/databases)
	$(TSX) scripts/ipdata-update.ts $(if $(KEY),--key $(KEY)) --dir $(or $(DIR),var/databases) $(foreach d,$(or $(DB),complete/mmdb),--db $(d)) $(if $(BASE_URL),--base-url $(BASE_URL))

.PHONY: bench-ledger
bench-ledger: ## CPU per usage event in metering (record into the Redis stream, relay to Kafka) beside kafkajs' own records (needs make stack-up; JSON lines)
	$(TSX) scripts/bench/usage-ledger.bench.ts $(BENCH_ARGS)

.PHONY: bench-kafka-client
bench-kafka-client: ## CPU per event of kafkajs and @confluentinc/kafka-javascript in one run (builds confluent from source first, minutes; needs make stack-up; JSON lines; docs/adr/0002)
	bash scripts/kafka-client/build-confluent-kafka.sh
	$(TSX) scripts/bench/kafka-client.bench.ts $(BENCH_ARGS)

.PHONY: bench-stats
bench-stats: ## stats consumer benchmark: events/s from a pre-filled usage.lookup.v1 to rollups vs a raw kafkajs read (needs make stack-up; JSON lines)
	$(TSX) scripts/bench/stats-consumer.bench.ts $(BENCH_ARGS)

.PHONY: usage-reconcile usage-replay
usage-reconcile: ## raise bff-en's Redis quota counters of the month to stats' rollups (after Redis lost data; ACCOUNT=<id> for one)
	$(TSX) scripts/ops/usage-reconcile.ts $(if $(ACCOUNT),--account $(ACCOUNT))
usage-replay: ## rebuild stats' rollups from the ledger into fresh collections and swap them in (FROM=earliest|<ISO time>|<p:offset,...>)
	$(TSX) scripts/ops/usage-replay.ts --from $(or $(FROM),earliest)

.PHONY: stack-up stack-down stack-status
stack-up: ## start Kafka, FerretDB and Redis as local processes (installs them if missing)
	$(STACK) up
stack-down: ## stop the local stack; leaves no process behind
	$(STACK) down
stack-status: ## show what runs
	$(STACK) status

.PHONY: up
up: build dataset stack-up ## install, build, build the dataset, start the stack and every service; prints the URLs
	KAFKA_BROKERS=127.0.0.1:$${KAFKA_PORT:-9092} $(TSX) scripts/create-topics.ts
	@# The probe worker runs Debian's traceroute (its /readyz waits for the binary).
	scripts/test/install-probe-tools.sh
	scripts/test/install-pdf-tools.sh
	$(SERVICES) up
	@echo
	@# Addresses from the port registry infra/ports.json (services/README.md, "Port registry").
	@$(SERVICES) urls
	@echo
	@# A FREE demo account with an API key, through auth's and billing's real calls; re-runs reuse it.
	@$(TSX) scripts/dev/demo-account.ts
	@echo "  stop with: make down"

.PHONY: down
down: ## stop everything `make up` started (services, then the stack)
	$(SERVICES) down
	$(STACK) down

.PHONY: clean
clean: ## remove build output and generated code (keeps var/ and caches)
	rm -rf proto/gen proto/dist services/*/dist frontends/*/dist
	find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete
