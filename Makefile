# SPDX-License-Identifier: GPL-2.0
#
# The single entry point. Every target is a thin call into one tools/ verb.
# Everything generated lands under WORK, outside this checkout.

# WORK (default ~/.cache/atomic-from-ptr, see tools/lib.sh) is handed to the
# tools when set on the command line or in the environment.
ARCH ?= x86_64
# The kernel base, a block of configs/source.conf: 6.1 (default) or 6.12.
BASE ?=
CF_ARCHES ?=
# make test's arch set, a SET of configs/arch-sets: default, or all (adds the
# x86_64-clang, i386, alpha SMP and arm64 Clang LTO boots and disassembly).
ARCHES ?=
RUNS ?= 3
GATES ?=
# tools/convert: the tree (default: the work tree), its scope, its options.
KSRC ?=
PATHS ?=
CONVERT_ARGS ?=
export KSRC
export ARCHES
export BASE
export WORK

PHONY :=

PHONY += all
all: ## Main job: prepare, apply the series, a conversion report (kernel/time), boot KUnit in QEMU (x86_64)
	@tools/run main

PHONY += test
test: ## All tests: export check, self-tests, cocci fixtures, lint, docs, compile-fail, single access, KUnit in QEMU, on the arches configs/arch-sets lists for ARCHES (default or all); ends 'N passed, N failed'
	@tools/run test

PHONY += install-deps
install-deps: ## Install the Debian packages in configs/packages (apt-get)
	@tools/install-deps

PHONY += prepare
prepare: ## Unpack the pinned linux-source of BASE (6.1, or BASE=6.12) into $(WORK)/src as a git tree
	@tools/prepare

PHONY += apply
apply: prepare ## (Re)build branch atomic-from-ptr: base + patches/series (git am)
	@tools/apply

PHONY += export
export: ## Write branch atomic-from-ptr back into patches/ (byte-stable)
	@tools/export

PHONY += check-export
check-export: prepare ## Re-apply, re-export to a temp dir, fail unless identical
	@tools/export --check

PHONY += kunit
kunit: apply ## Build and boot the KUnit suites in QEMU for ARCH (a file of kunit/arch/: x86_64, x86_64-clang, arm64, i386, alpha, arm64-clang-lto)
	@tools/kunit $(ARCH)

PHONY += compile-fail
compile-fail: apply ## Misuse must fail with the named message, valid use compile clean (CF_ARCHES, default: configs/arch-sets)
	@tools/compile-fail $(CF_ARCHES)

PHONY += single-access
single-access: apply ## Disassemble every accessor x accepted type: one access of the object's width (CF_ARCHES, default: configs/arch-sets; also alpha, arm64-clang-lto)
	@tools/single-access $(CF_ARCHES)

PHONY += docs
docs: apply ## make htmldocs SPHINXDIRS=core-api with Debian's Sphinx; no warning about the series' files
	@tools/docs

PHONY += lint
lint: apply ## checkpatch, kernel-doc, codespell, shellcheck, pyflakes, sparse, W=1, bisect (GATES= picks some)
	@tools/lint $(GATES)

PHONY += convert
convert: ## Mark plain stores to fields read locklessly in KSRC (default: the work tree); PATHS= scope, CONVERT_ARGS=--dry-run|--commit
	@tools/convert $(CONVERT_ARGS) $(PATHS)

PHONY += check-generated
check-generated: apply ## Rerun the tools/convert command of each generated patch; it must reproduce the patch
	@tools/check-generated

PHONY += objects
objects: apply ## Compile every file the generated patches convert (x86_64 arm64, defconfig + configs/objects.config)
	@tools/objects

PHONY += cocci-fixtures
cocci-fixtures: ## Semantic-patch fixtures in cocci/tests (spatch only, no kernel build)
	@tools/cocci-fixtures

PHONY += kcsan-peer
kcsan-peer: apply ## The kernel's own kcsan_test, base vs series, RUNS times each (not gating)
	@tools/kcsan-peer $(RUNS)

PHONY += bench
export BENCH_PIPELINE BENCH_SCOPE BENCH_COCCI_SCOPE BENCH_TABLES
bench: apply ## Seven tables from one run (codegen, code size, micro-benchmark, conversion speed, make test stage times, nested preprocessed size, whole-tree conversion and recall; BENCH_TABLES="4 5" picks some, BENCH_PIPELINE=0 skips table 5); markdown in $(WORK)/results/bench.md
	@tools/bench

PHONY += kcsan-evidence
export DURATION SMP REBOOT KCSAN_ARGS SWEEP
kcsan-evidence: apply ## KCSAN on a stress-ng workload (files, scheduler, sockets on loopback) in QEMU, crossed with both discovery passes, before and after tools/convert on the subsystems whose plain accesses raced (DURATION= s per boot, default 600; KCSAN_ARGS= kernel command line; SWEEP="a;b" boots once per KCSAN_ARGS setting and stops); markdown in $(WORK)/results/kcsan-evidence.md (not part of make test)
	@tools/kcsan-evidence

PHONY += selftest
selftest: ## Unit tests of the tools themselves (no kernel needed)
	@tools/selftest

PHONY += help
help: ## This list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16
	@echo "Variables: BASE=$${BASE:-6.1} (or 6.12; configs/source.conf)  WORK=$${WORK:-~/.cache/atomic-from-ptr} (BASE=6.12: WORK/6.12)  ARCH=$(ARCH)  ARCHES=$${ARCHES:-default} (make test: default or all)"

.PHONY: $(PHONY)
