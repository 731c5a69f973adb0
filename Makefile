# webperf-repro: `make reproduce` regenerates every table, figure and the ledger; `make test` proves it.
# Both bootstrap .venv from requirements.lock first (only when missing or stale).

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PAPERLIB := $(shell find paperlib -name '*.py' 2>/dev/null)
EXECUTED := figures/executed
RUN_NOTEBOOK := $(PY) -m paperlib.run_notebook

# Simulations: a local Dask cluster by default; SCHEDULER=tcp://host:8786 uses an existing cluster.
SCHEDULER ?=
SWEEP_ARGS := $(if $(SCHEDULER),-p scheduler $(SCHEDULER))

# Paper 001's testbed: PROFILE=scaled (default, 10 Mbit/s, Mah's CDFs), PROFILE=sensitivity (the same on the
# parametric workload) or PROFILE=full (100 Mbit/s,
# ten times the browsers; hours on 2 cores, meant for a cluster). A change of PROFILE reruns it.
PROFILE ?= scaled
PROFILE_STAMP := .cache/profile
$(shell mkdir -p .cache && { [ "$$(cat $(PROFILE_STAMP) 2>/dev/null)" = "$(PROFILE)" ] || echo "$(PROFILE)" > $(PROFILE_STAMP); })

# One partial ledger per paper notebook; the merged ledger depends on all of them.
NOTEBOOK_000 := notebooks/000_multiuser_waiting.ipynb
NOTEBOOK_001 := notebooks/001_fifo_red_response.ipynb
NOTEBOOK_002 := notebooks/002_http_sctp_response.ipynb
NOTEBOOK_003 := notebooks/003_specweb96_abr.ipynb
NOTEBOOK_004 := notebooks/004_slow_start_latency.ipynb
PARTIALS := figures/000/ledger.csv figures/001/ledger.csv figures/002/ledger.csv figures/003/ledger.csv figures/004/ledger.csv

.DEFAULT_GOAL := help
.PHONY: help reproduce test bench lab venv lock clean clean-venv

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.lock pyproject.toml tools/bootstrap.sh tools/check_prereqs.sh
	@tools/bootstrap.sh "$(PYTHON)" "$(VENV)"

venv: $(STAMP) ## create or refresh .venv from requirements.lock

figures/data-check.md: $(wildcard data/*/*) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.data --report $@

figures/000/ledger.csv: $(NOTEBOOK_000) $(wildcard data/000/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<)

figures/001/ledger.csv: $(NOTEBOOK_001) $(wildcard data/001/*) $(wildcard data/001/mah/*) $(PAPERLIB) $(STAMP) $(PROFILE_STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) -p profile $(PROFILE) $(SWEEP_ARGS)

figures/002/ledger.csv: $(NOTEBOOK_002) $(wildcard data/002/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(SWEEP_ARGS)

figures/003/ledger.csv: $(NOTEBOOK_003) $(wildcard data/003/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(SWEEP_ARGS)

figures/004/ledger.csv: $(NOTEBOOK_004) $(wildcard data/004/*) $(PAPERLIB) $(STAMP)
	$(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<)

figures/ledger.csv figures/ledger-summary.md &: $(PARTIALS) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.ledger merge $(PARTIALS) --out figures/ledger.csv --summary figures/ledger-summary.md

reproduce: figures/data-check.md figures/ledger.csv ## regenerate all tables, figures and figures/ledger.csv
	@echo
	@cat figures/ledger-summary.md

test: $(STAMP) ## run the test suite (unit, property, data, ledger, notebook, ns-3 smoke)
	$(PY) -m pytest

bench: $(STAMP) ## time the vectorised models and the 001 testbed (prints ratios)
	$(PY) bench/bench_models.py
	$(PY) bench/bench_testbed.py

lab: $(STAMP) ## open JupyterLab on notebooks/ with the project's environment as kernel
	$(VENV)/bin/jupyter lab notebooks/

lock: ## re-resolve requirements.in into requirements.lock (in a scratch venv)
	@tmp=$$(mktemp -d) && "$(PYTHON)" -m venv $$tmp/v && $$tmp/v/bin/pip install --quiet -r requirements.in \
	  && { sed -n '1,2p' requirements.lock; $$tmp/v/bin/pip freeze --all | grep -v -E '^(pip|setuptools|wheel)=='; } > requirements.lock.new \
	  && mv requirements.lock.new requirements.lock && rm -rf $$tmp && echo "requirements.lock updated"

clean: ## remove generated outputs (figures/, executed notebooks)
	find figures -mindepth 1 ! -name .gitignore -exec rm -rf {} +

clean-venv: ## remove the virtual environment
	rm -rf $(VENV)
