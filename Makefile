# webperf-repro: `make reproduce` regenerates every table, figure and the ledger; `make test` proves it.
# Both bootstrap .venv from requirements.lock first (only when missing or stale).

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PAPERLIB := $(shell find paperlib -name '*.py' -o -name '*.c' -o -name '*.cpp' 2>/dev/null)
EXECUTED := figures/executed
RUN_NOTEBOOK := $(PY) -m paperlib.run_notebook

# Simulations: a local Dask cluster by default; SCHEDULER=tcp://host:8786 uses an existing cluster.
SCHEDULER ?=
SWEEP_ARGS := $(if $(SCHEDULER),-p scheduler $(SCHEDULER))

# Paper 001's testbed: PROFILE=scaled (default, 10 Mbit/s, Mah's CDFs), PROFILE=sensitivity (the default plus
# the same plan on the parametric workload, see below) or PROFILE=full (100 Mbit/s,
# ten times the browsers; hours on 2 cores, meant for a cluster). A change of PROFILE reruns it.
PROFILE ?= scaled
# The stamp is written only by its own recipe, run only as a prerequisite of figures/001/ledger.csv,
# and only when its content changes: make help, make -n and other targets change no state.
PROFILE_STAMP := .cache/profile

# Papers 000, 002, 004 re-run their experiments on real stacks through an emulated link (needs root, TUN,
# network namespaces; otherwise the notebooks say the emulated column was not run): the reduced grid by
# default, the full grid with PROFILE=full.
# EMULATION=off opts out of them (the ledger's reasons then say the real-stack column was not run, by choice).
EMULATION ?= $(if $(filter full,$(PROFILE)),full,reduced)
# BROWSER_TEST=off opts make test out of the report's browser test (which needs Debian's chromium).
BROWSER_TEST ?= on
# What the operating system must provide, checked (and on a root Debian/Ubuntu machine installed) before any work.
PREREQS = tools/prereqs.sh --install --python "$(PYTHON)" --emulation $(EMULATION) --browser $(BROWSER_TEST) --for

# One partial ledger per paper notebook; the merged ledger depends on all of them.
NOTEBOOK_000 := notebooks/000_multiuser_waiting.ipynb
NOTEBOOK_001 := notebooks/001_fifo_red_response.ipynb
NOTEBOOK_002 := notebooks/002_http_sctp_response.ipynb
NOTEBOOK_003 := notebooks/003_specweb96_abr.ipynb
NOTEBOOK_004 := notebooks/004_slow_start_latency.ipynb
PARTIALS := figures/000/ledger.csv figures/001/ledger.csv figures/002/ledger.csv figures/003/ledger.csv figures/004/ledger.csv

.DEFAULT_GOAL := help
.PHONY: help prereqs reproduce reproduce-outputs test bench lab venv lock clean clean-venv validate nbval-fixtures report FORCE

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.lock pyproject.toml tools/bootstrap.sh tools/prereqs.sh
	@tools/bootstrap.sh "$(PYTHON)" "$(VENV)"

prereqs: ## check (as root on Debian/Ubuntu: install) the system packages make reproduce and make test need
	@$(PREREQS) test

venv: $(STAMP) ## create or refresh .venv from requirements.lock

figures/data-check.md: $(wildcard data/*/*) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.data --report $@

figures/000/ledger.csv: $(NOTEBOOK_000) $(wildcard data/000/*) $(PAPERLIB) $(STAMP) $(PROFILE_STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(SWEEP_ARGS) -p emulation '"$(EMULATION)"'

# PROFILE=sensitivity runs the 001 notebook twice: on the parametric workload into figures/001-sensitivity/
# (not merged into the ledger), then on the default workload into figures/001/, whose claim reasons say
# which verdicts differ on the other workload (the notebook's compare_with default reads that claims.csv).
PROFILE_001 := $(if $(filter sensitivity,$(PROFILE)),scaled,$(PROFILE))
SENSITIVITY_001 := $(if $(filter sensitivity,$(PROFILE)),figures/001-sensitivity/claims.csv)

figures/001-sensitivity/claims.csv: $(NOTEBOOK_001) $(wildcard data/001/*) $(wildcard data/001/mah/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/001_fifo_red_response-sensitivity.ipynb -p profile sensitivity \
	  -p output_dir figures/001-sensitivity $(SWEEP_ARGS)

# A kept run of the other workload feeds the claim reasons, so it is a prerequisite when present.
figures/001/ledger.csv: $(NOTEBOOK_001) $(wildcard data/001/*) $(wildcard data/001/mah/*) $(PAPERLIB) $(STAMP) $(PROFILE_STAMP) \
  $(sort $(SENSITIVITY_001) $(wildcard figures/001-sensitivity/claims.csv))
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) -p profile $(PROFILE_001) $(SWEEP_ARGS)

figures/002/ledger.csv: $(NOTEBOOK_002) $(wildcard data/002/*) $(PAPERLIB) $(STAMP) $(PROFILE_STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(SWEEP_ARGS) -p emulation '"$(EMULATION)"'

figures/003/ledger.csv: $(NOTEBOOK_003) $(wildcard data/003/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(SWEEP_ARGS)

figures/004/ledger.csv: $(NOTEBOOK_004) $(wildcard data/004/*) $(PAPERLIB) $(STAMP) $(PROFILE_STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) -p emulation '"$(EMULATION)"'

$(PROFILE_STAMP): FORCE
	@mkdir -p $(@D) && { [ "$$(cat $@ 2>/dev/null)" = "$(PROFILE)" ] || echo "$(PROFILE)" > $@; }

FORCE:

figures/ledger.csv figures/ledger-summary.md &: $(PARTIALS) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.manifest check $(patsubst %/,%,$(dir $(PARTIALS)))
	$(PY) -m paperlib.ledger merge $(PARTIALS) --out figures/ledger.csv --summary figures/ledger-summary.md
	$(PY) -m paperlib.emulation.ledger_rows summary figures/ledger.csv figures/ledger-summary.md

reproduce: ## regenerate all tables, figures and figures/ledger.csv (checks the system's packages first)
	@$(PREREQS) reproduce
	@$(MAKE) --no-print-directory reproduce-outputs

reproduce-outputs: figures/data-check.md figures/ledger.csv
	@echo
	@cat figures/ledger-summary.md

test: ## lint (ruff), then the test suite (unit, property, data, ledger, notebook, ns-3); checks the system's packages first
	@$(PREREQS) test
	@$(MAKE) --no-print-directory $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

bench: $(STAMP) ## time the vectorised models and the 001 testbed (prints ratios), the emulator's highest accurate rate
	$(PY) bench/bench_models.py
	$(PY) bench/bench_testbed.py
	$(PY) bench/bench_explore.py
	$(PY) bench/bench_emulation.py

# The project's kernel, registered inside .venv (not in the user's own Jupyter), named as the notebooks' kernelspec.
KERNEL := webperf-repro
KERNEL_SPEC := $(VENV)/share/jupyter/kernels/$(KERNEL)/kernel.json
$(KERNEL_SPEC): $(STAMP)
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python 3 (webperf-repro)"

lab: $(KERNEL_SPEC) ## open JupyterLab on notebooks/ with the project's kernel (webperf-repro)
	$(VENV)/bin/jupyter lab --MultiKernelManager.default_kernel_name=$(KERNEL) notebooks/

validate: $(STAMP) ## re-execute figures/executed/*.ipynb (last make reproduce) with nbval, compare outputs
	$(PY) tools/nbval_run.py --executed

nbval-fixtures: $(STAMP) ## regenerate tests/nbval/*.ipynb, the small runs make test checks with nbval (~2 min)
	$(PY) tools/nbval_fixtures.py

# What the report reads (the outputs, its templates, the docs), minus the files other rules make (the ledgers): listing those would make `make report`
# re-run a stale notebook instead of reporting what figures/ holds. A notebook run rewrites its provenance.json
# and .run-manifest.json, and the merged ledger follows the partial ones, so these stand for the ledgers.
REPORT_INPUTS := $(wildcard figures/[0-9][0-9][0-9]/*.png figures/[0-9][0-9][0-9]/provenance.json \
  figures/[0-9][0-9][0-9]/.run-manifest.json figures/executed/*.ipynb \
  paperlib/report/templates/* paperlib/report/static/* docs/*.md docs/*/*.md)
figures/report/index.html: $(REPORT_INPUTS) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.report --figures figures --out figures/report

report: figures/report/index.html ## build the HTML report figures/report/ from what figures/ holds (run make reproduce first)
	@echo "open figures/report/index.html"

lock: ## re-resolve requirements.in into requirements.lock (in a scratch venv)
	@tmp=$$(mktemp -d) && "$(PYTHON)" -m venv $$tmp/v && $$tmp/v/bin/pip install --quiet -r requirements.in \
	  && { sed -n '1,2p' requirements.lock; $$tmp/v/bin/pip freeze --all | grep -v -E '^(pip|setuptools|wheel)=='; } > requirements.lock.new \
	  && mv requirements.lock.new requirements.lock && rm -rf $$tmp && echo "requirements.lock updated"

clean: ## remove generated outputs (figures/, executed notebooks)
	find figures -mindepth 1 ! -name .gitignore -exec rm -rf {} +

clean-venv: ## remove the virtual environment
	rm -rf $(VENV)
