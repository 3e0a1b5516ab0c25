# graphrag developer tasks. `make help` lists them.
GO          ?= go
BIN         ?= bin/graphrag
STATICCHECK ?= $(shell $(GO) env GOPATH)/bin/staticcheck
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -s -w -X main.version=$(VERSION)

.PHONY: help build install test test-nodb test-race golden check-mermaid bench bench-pg lint db-up eval eval-ci eval-oracle demo clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

build: ## build bin/graphrag
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/graphrag

install: ## go install graphrag into GOBIN
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/graphrag

test: ## every test, race detector on, against a real PostgreSQL (starts it with scripts/db-up.sh unless GRAPHRAG_TEST_DATABASE_URL is set)
	@url="$$GRAPHRAG_TEST_DATABASE_URL"; \
	if [ -z "$$url" ]; then url=$$(scripts/db-up.sh) || { echo "make test: scripts/db-up.sh failed; without PostgreSQL run 'make test-nodb'" >&2; exit 1; }; url=$$(printf '%s\n' "$$url" | tail -n1); fi; \
	echo "make test: PostgreSQL at $$url" >&2; \
	GRAPHRAG_TEST_DATABASE_URL="$$url" GRAPHRAG_REQUIRE_DB=1 $(GO) test -race -count=1 -timeout 30m ./...
	@# The eval tests skip under the race detector (it slows them thirtyfold): run them without it.
	$(GO) test -count=1 -timeout 30m ./evals ./retrievers/sqlite

test-nodb: ## the tests without PostgreSQL (its tests skip with a message)
	$(GO) test ./...

test-race: ## the tests with the race detector, PostgreSQL only if GRAPHRAG_TEST_DATABASE_URL is set
	$(GO) test -race ./...

golden: ## refresh the golden files (diagrams, reports) after an intended change; review the diff
	$(GO) test ./graph ./nodes ./evals -update

MERMAID_VERSION ?= 11.17.2
JSDOM_VERSION   ?= 29.1.1
check-mermaid: build ## parse `graphrag viz` and the golden diagrams with the real Mermaid parser (needs node and npm)
	@deps=$$(mktemp -d) && trap 'rm -rf "$$deps"' EXIT && \
	( cd "$$deps" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund mermaid@$(MERMAID_VERSION) jsdom@$(JSDOM_VERSION) >&2 ) && \
	$(BIN) viz > "$$deps/viz.mmd" && \
	MERMAID_DEPS="$$deps" node scripts/check-mermaid.mjs "$$deps/viz.mmd" graph/testdata/golden/*.mmd nodes/testdata/golden/*.mmd

bench: ## engine, store and ingest benchmarks
	$(GO) test -run '^$$' -bench . -benchmem ./graph/ ./retrievers/sqlite/ ./ingest/
	cd bench && $(GO) test -run '^$$' -bench . -benchmem ./...

bench-pg: db-up ## PostgreSQL benchmarks (needs the server from db-up)
	GRAPHRAG_TEST_DATABASE_URL=$$(scripts/db-up.sh | tail -n1) \
	  $(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./retrievers/pgvector/

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@latest

lint: $(STATICCHECK) ## go vet and staticcheck
	$(GO) vet ./...
	$(STATICCHECK) ./...
	cd bench && $(GO) vet ./...

db-up: ## install and start PostgreSQL with pgvector (Debian/Ubuntu, root); prints the URL
	scripts/db-up.sh

eval: build ## score the bundled eval set (routing, and RAG with ablations) into docs/eval/
	@mkdir -p docs/eval
	$(BIN) eval routing --cv source --markdown docs/eval/routing.md --json > docs/eval/routing.json
	$(BIN) eval rag --ablate --markdown docs/eval/rag.md --json > docs/eval/rag.json

eval-docs: build ## score answers on documents installed here: Go's tree, PostgreSQL's man pages, /usr/share/doc
	$(BIN) eval docs

eval-ci: build ## the eval gate CI runs: fails when the deterministic path regresses
	$(BIN) eval routing --min-hard-coarse 0.95 --min-coarse-accuracy 0.94
	$(BIN) eval rag --min-recall 0.93 --min-both-gold 0.90 --min-mrr 0.90 --min-abstain 0.90 --max-false-abstain 0.10

ORACLE ?= all
eval-oracle: ## the LLM path with an oracle model (ORACLE=perfect,terse,verbose,noisy,garbage,private) over both protocols, on the whole dev set; reports in .eval/oracle/
	$(GO) test ./evals -run '^TestOracleEval$$' -count=1 -v -timeout 30m -evals.oracle=$(ORACLE) -evals.report=$(CURDIR)/.eval/oracle

demo: build ## ingest the bundled sample and ask it a question
	$(BIN) ingest --store .demo/graphrag.db examples/sample
	$(BIN) run --store .demo/graphrag.db "When does the nightly backup run and where does it go?"

clean: ## remove build output and local stores
	rm -rf bin .demo .eval
