# Tolt Edge. Quick start: `make serve` runs the server with a demo program; `make test` runs every test.
SWIFT ?= swift
PORT ?= 8080
DATA ?= ./data
# The links' public base URL: the preview page's og:url and the desktop page's QR code are built from it.
PUBLIC_URL ?= http://localhost:$(PORT)

.PHONY: serve build test check bench clean

serve: build
	.build/release/tolt-edge serve --demo --port $(PORT) --data $(DATA) --public-url $(PUBLIC_URL)

build:
	scripts/install-deps.sh build
	$(SWIFT) build -c release --product tolt-edge

# The formatting first (quick, and needs no build), then the debug build (the crash test runs its binary), the SDK's
# example package (a separate package that imports Tolt, run against the server) and the tests, with a throwaway
# PostgreSQL cluster started for them (TOLT_TEST_POSTGRES) and stopped afterwards, even when they fail.
# The SDK's suites run in a process of their own, after the rest: their claims wait on timers and sockets in Swift
# concurrency's pool, which the other suites' blocking tests (sockets, child servers, million-case fuzzers) hold for
# minutes on a 2-core machine, long enough for a claim's 300 s retry deadline to pass while it waits to resume.
SDK_SUITES = '^Tolt(Docs)?Tests\.'
test:
	SWIFT=$(SWIFT) scripts/validate.sh
	scripts/install-deps.sh test
	$(SWIFT) build
	SWIFT=$(SWIFT) scripts/example.sh
	scripts/with-postgres.sh $(SWIFT) test --skip $(SDK_SUITES)
	$(SWIFT) test --skip-build --filter $(SDK_SUITES)

bench: build
	scripts/install-deps.sh bench
	bench/link.sh

clean:
	rm -rf .build
