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
# PROFILE=quick runs every paper at reduced scale (paperlib/profiles.py's parameters) without the real stacks (EMULATION
# off: no root needed), a few minutes on 2 cores; its ledger rows say profile "quick": their statuses are not the
# reference's, and make validate refuses them. A switch to or from quick reruns every paper (QUICK_STAMP).
QUICK := $(filter quick,$(PROFILE))
QUICK_STAMP := .cache/quick-profile
# The stamp is written only by its own recipe, run only as a prerequisite of figures/001/ledger.csv,
# and only when its content changes: make help, make -n and other targets change no state.
PROFILE_STAMP := .cache/profile

# Papers 000, 002, 004 re-run their experiments on real stacks through an emulated link (needs root, TUN,
# network namespaces; otherwise the notebooks say the emulated column was not run): the reduced grid by
# default, the full grid with PROFILE=full.
# EMULATION=off opts out of them (the ledger's reasons then say the real-stack column was not run, by choice).
EMULATION ?= $(if $(filter full,$(PROFILE)),full,$(if $(QUICK),off,reduced))
# BROWSER_TEST=off opts make test out of the browser tests of the report and of make lab (they need Debian's chromium).
BROWSER_TEST ?= on
# The stamp holds the EMULATION the notebooks of 000/002/004 last ran with, so a change of it reruns them (written
# like PROFILE_STAMP: only by its own recipe, only when its content changes; not .cache/emulation/, the folder of
# the emulator's compiled programs). A paper depends on it when its notebook declares `emulation` (below).
EMULATION_STAMP := .cache/emulation-profile
# What the operating system must provide, checked (and on a root Debian/Ubuntu machine installed) before any work.
PREREQS = tools/prereqs.sh --install --python "$(PYTHON)" --venv "$(VENV)" --emulation "$(EMULATION)" --browser "$(BROWSER_TEST)" --for

.DEFAULT_GOAL := help
.PHONY: help prereqs prereqs-reproduce reproduce reproduce-outputs reference test bench lab venv lock clean clean-venv validate nbval-fixtures report new-paper FORCE

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.lock pyproject.toml tools/bootstrap.sh tools/prereqs.sh
	@tools/bootstrap.sh "$(PYTHON)" "$(VENV)"

prereqs: ## check (as root on Debian/Ubuntu: install) the system packages make reproduce and make test need
	@$(PREREQS) test

venv: $(STAMP) ## create or refresh .venv from requirements.lock

# The papers: every data/NNN/ that has a notebook notebooks/NNN_*.ipynb. Each paper's rule passes the make
# variables its notebook declares as parameters (scheduler, emulation, profile), and depends on their stamps.
notebook_of = $(firstword $(wildcard notebooks/$(1)_*.ipynb))
data_of = $(shell find data/$(1) -type f)
PAPERS := $(foreach p,$(patsubst data/%/,%,$(sort $(dir $(wildcard data/[0-9][0-9][0-9]/*)))),$(if $(call notebook_of,$p),$p))
# The package code a paper's run depends on: what its notebook imports, closed over imports, and its own package, but
# not the words of the findings (tools/paper_deps.py says what is in and why). All of paperlib if the list is empty.
code_of = $(or $(patsubst $(1):%,%,$(filter $(1):%,$(paper_code))),$(PAPERLIB))
# Computed once per make, and only when a paper's rule is considered (a make variable that replaces itself).
paper_code = $(eval paper_code := $$(shell $(PYTHON) tools/paper_deps.py --make $(foreach p,$(PAPERS),$(call notebook_of,$p)) 2>/dev/null))$(paper_code)
# One partial ledger per paper; the merged ledger depends on all of them.
PARTIALS := $(PAPERS:%=figures/%/ledger.csv)
# Whether paper $(1)'s notebook declares parameter $(2): a cell line "$(2) = " in its JSON (tests/test_make_papers.py
# checks this against the parameters cell that paperlib.parameters reads).
declares = $(shell grep -Eqs '(\\n|")$(2) = ' $(call notebook_of,$(1)) && echo yes)

# PROFILE=sensitivity runs the 001 notebook twice: on the parametric workload into figures/001-sensitivity/
# (not merged into the ledger), then on the default workload into figures/001/, whose claim reasons say
# which verdicts differ on the other workload (the notebook's compare_with default reads that claims.csv).
# The same holds for any paper whose notebook declares `profile`.
# PROFILE=quick runs 001 on its default workload (profile scaled) with the quick parameters (--profile quick).
RUN_PROFILE := $(if $(filter sensitivity quick,$(PROFILE)),scaled,$(PROFILE))
paper_args = -p output_dir figures/$(1) \
  $(if $(call declares,$(1),scheduler),$(SWEEP_ARGS)) \
  $(if $(call declares,$(1),emulation),-p emulation '"$(EMULATION)"') \
  $(if $(call declares,$(1),profile),-p profile $(RUN_PROFILE)) \
  $(if $(QUICK),--profile quick)
paper_stamps = $(if $(call declares,$(1),emulation),$(EMULATION_STAMP)) $(if $(call declares,$(1),profile),$(PROFILE_STAMP)) \
  $(QUICK_STAMP)
# A kept run of the other workload feeds the claim reasons, so it is a prerequisite when present.
paper_sensitivity = $(if $(call declares,$(1),profile),$(sort $(if $(filter sensitivity,$(PROFILE)),figures/$(1)-sensitivity/claims.csv) \
  $(wildcard figures/$(1)-sensitivity/claims.csv)))

# Each run goes through paperlib.run_progress: one line as it starts (with the time its last run here took) and
# one as it ends, its full output in figures/logs/<paper>.log (the log's tail on the terminal if it fails).
# Papers overlap (make -j, below): a notebook that emulates links in real time holds the `emulation` lock (one
# at a time, normal priority); the others are CPU-bound simulations and run at the lowest CPU priority (nice 10
# under the idle scheduling policy, SCHED_IDLE, in sessions whose scheduler groups have the lowest weight: with
# autogroup scheduling the policy counts only within a session, docs/running.md), so they take the cores the
# emulation leaves idle and give them up the moment an emulated run's process wakes (each run records what it
# waited, docs/fidelity.md).
# A notebook that declares `emulation_lock` (paper 001: hours of ns-3 around minutes of real stacks) takes that lock
# itself around its real-stack sweep and runs that sweep at normal priority; the rest of its run is a simulation's.
# PRIORITY=normal runs the simulating papers at normal priority too (a machine that runs nothing else that matters, or
# a test of make's rules beside other tests, where an idle-class run waits for whatever else runs); the emulation lock
# stays.
PRIORITY ?= idle
$(if $(filter-out idle normal,$(PRIORITY)),$(error PRIORITY must be idle or normal, got '$(PRIORITY)'))
SIMULATION_PRIORITY := $(if $(filter idle,$(PRIORITY)),--nice 10 --idle)
paper_priority = $(if $(and $(call declares,$(1),emulation),$(filter-out off,$(EMULATION)),$(if $(call declares,$(1),emulation_lock),,yes)),--exclusive emulation,$(SIMULATION_PRIORITY))
# A quick run's times are kept apart, so neither its expected times nor make bench's cold-run floor mix the two scales.
RUN_TIMES := .cache/run-times$(if $(QUICK),-quick)
RUN_PAPER = $(PY) -m paperlib.run_progress $(1) --log figures/logs/$(1).log --label $(basename $(notdir $(2))) \
  --times-dir $(RUN_TIMES) --locks-dir .cache/locks $(3) --

# A paper's run needs what make reproduce needs, so `make figures/004/ledger.csv` checks it first, as make reproduce
# does: once per make invocation, before any paper starts (order-only: the check never makes a paper out of date).
# make reproduce checks before its sub-make and tells the sub-make (-o) not to check again.
prereqs-reproduce:
	@$(PREREQS) reproduce

.SECONDEXPANSION:
$(PARTIALS): figures/%/ledger.csv: $$(call notebook_of,$$*) $$(call data_of,$$*) $$(call code_of,$$*) $(STAMP) \
  $$(call paper_stamps,$$*) $$(call paper_sensitivity,$$*) | prereqs-reproduce
	@$(call RUN_PAPER,$*,$<,$(call paper_priority,$*)) $(RUN_NOTEBOOK) $< $(EXECUTED)/$(notdir $<) $(call paper_args,$*)

figures/%-sensitivity/claims.csv: $$(call notebook_of,$$*) $$(call data_of,$$*) $$(call code_of,$$*) $(STAMP) | prereqs-reproduce
	@$(call RUN_PAPER,$*-sensitivity,$<,$(SIMULATION_PRIORITY)) $(RUN_NOTEBOOK) $< \
	  $(EXECUTED)/$(basename $(notdir $<))-sensitivity.ipynb -p profile sensitivity -p output_dir figures/$*-sensitivity \
	  $(if $(call declares,$*,scheduler),$(SWEEP_ARGS))

# A stamp file holds a variable's value and is rewritten only when the value changes.
write_stamp = mkdir -p $(@D) && { [ "$$(cat $@ 2>/dev/null)" = "$(1)" ] || echo "$(1)" > $@; }
$(PROFILE_STAMP): FORCE
	@$(call write_stamp,$(PROFILE))
$(EMULATION_STAMP): FORCE
	@$(call write_stamp,$(EMULATION))
$(QUICK_STAMP): FORCE
	@$(call write_stamp,$(or $(QUICK),notebook defaults))

FORCE:

figures/data-check.md: $(wildcard data/*/*) $(PAPERLIB) $(STAMP)
	@$(PY) -m paperlib.data --report $@

figures/ledger.csv figures/ledger-summary.md &: $(PARTIALS) $(PAPERLIB) $(STAMP)
	@$(PY) -m paperlib.manifest check $(patsubst %/,%,$(dir $(PARTIALS)))
	@$(PY) -m paperlib.ledger merge $(PARTIALS) --out figures/ledger.csv --summary figures/ledger-summary.md
	@$(PY) -m paperlib.emulation.ledger_rows summary figures/ledger.csv figures/ledger-summary.md

# make -n: the recursive make still runs (and only prints); the summary is skipped.
DRY_RUN = $(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS))))
# The papers run side by side: JOBS=1 runs them one after another; `make -jN reproduce` sets the number itself.
JOBS ?= $(words x $(PAPERS))
reproduce: prereqs-reproduce ## regenerate all tables, figures and figures/ledger.csv (PROFILE=quick: minutes, no root)
	@export WEBPERF_RUN_ID="$$(date +%s.%N)-$$$$"; start=$$(date +%s.%N); \
	  $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS)) -o prereqs-reproduce reproduce-outputs; rc=$$?; \
	  [ -n "$(DRY_RUN)" ] || [ ! -f $(STAMP) ] || $(PY) -m paperlib.run_summary --papers $(PAPERS) --run-id "$$WEBPERF_RUN_ID" --since $$start \
	    --times-dir $(RUN_TIMES); \
	  [ $$rc -ne 0 ] || [ -n "$(DRY_RUN)" ] || [ ! -f $(STAMP) ] || $(PY) -m paperlib.reference compare --reference $(REFERENCE) --figures figures; \
	  exit $$rc

reproduce-outputs: figures/data-check.md figures/ledger.csv

# The reference run the package carries (reference/: the ledger, each paper's key figures and real-stack table, RUN.json
# with the machine, commit and schedule). make reproduce ends by comparing its ledger with it (paperlib.reference);
# make reference rewrites it from the last complete make reproduce (run it on that run's machine, with its JOBS).
REFERENCE := reference
reference: $(STAMP) ## rewrite reference/ (ledger, key figures, RUN.json) from the last complete make reproduce run
	@$(PY) -m paperlib.reference_run write --figures figures --out $(REFERENCE) --jobs "$(JOBS)" --times-dir $(RUN_TIMES)

# make test's pytest workers (pytest-xdist): each takes whole test modules, those with exclusive tests first, then the
# slow ones; tests marked `exclusive` (real-time emulation) run while the other workers wait (tests/conftest.py).
# TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: ## lint (ruff), then the test suite (unit, property, data, ledger, notebook, ns-3); checks the system's packages first
	@$(PREREQS) test
	@$(MAKE) --no-print-directory $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

bench: $(STAMP) ## time the models, the 001 testbed and ns-3's floor (prints ratios), the emulator, the run budgets, real-time fidelity
	$(PY) bench/bench_models.py
	$(PY) bench/bench_testbed.py
	$(PY) bench/bench_ns3_speed.py
	$(PY) bench/bench_budget.py
	$(PY) bench/bench_explore.py
	$(PY) bench/bench_emulation.py
	$(PY) bench/bench_fidelity.py
	$(PY) bench/bench_001_real.py

# The project's kernel, registered inside .venv (not in the user's own Jupyter), named as the notebooks' kernelspec.
KERNEL := webperf-repro
KERNEL_SPEC := $(VENV)/share/jupyter/kernels/$(KERNEL)/kernel.json
# Jupyter refuses to start as root without --allow-root: passed when the effective user id is 0, and only then.
LAB_AS_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root)
# The kernel runs the venv's interpreter by its real path, so a symlinked .venv keeps a working kernel.
$(KERNEL_SPEC): $(STAMP)
	$(realpath $(VENV))/bin/python -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python 3 (webperf-repro)"

# The server's root is the checkout (scratch/, where interactive runs write, is one click away); it opens at notebooks/.
# Port, token and browser come from Jupyter's own configuration (jupyter_server_config.json), as for any JupyterLab.
lab: $(KERNEL_SPEC) ## open JupyterLab at notebooks/ with the project's kernel (webperf-repro); runs write to scratch/
	@echo "Interactive runs of the paper notebooks write into scratch/<paper>/ (their output_dir default; not in git)."
	@echo "figures/ is written only by make reproduce (staged, with a run manifest); a notebook refuses an output_dir there."
	@echo "Start with notebooks/tutorial.ipynb. Explorers: notebooks/explorers.ipynb. Extending the package: docs/extending.md."
	$(VENV)/bin/jupyter lab $(LAB_AS_ROOT) --MultiKernelManager.default_kernel_name=$(KERNEL) --ContentsManager.preferred_dir=notebooks .

# The README shows the reference run's verdicts, so it is checked against reference/ledger.csv; this machine's run is
# compared with the reference by make reproduce's closing comparison (python -m paperlib.reference compare).
validate: $(STAMP) ## check reference/ and README against the code; refuse a quick ledger; re-execute figures/executed/*.ipynb with nbval
	$(PY) -m paperlib.reference_run check --reference $(REFERENCE)
	$(PY) -m paperlib.verdicts --ledger $(REFERENCE)/ledger.csv --check README.md
	$(PY) -m paperlib.profiles full-scale figures/ledger.csv
	$(PY) tools/nbval_run.py --executed

nbval-fixtures: $(STAMP) ## regenerate tests/nbval/*.ipynb, the small runs make test checks with nbval (~2 min)
	$(PY) tools/nbval_fixtures.py

# What the report reads (the outputs, its templates, the docs), minus the files other rules make (the ledgers): listing those would make `make report`
# re-run a stale notebook instead of reporting what figures/ holds. A notebook run rewrites its provenance.json
# and .run-manifest.json, and the merged ledger follows the partial ones, so these stand for the ledgers.
REPORT_INPUTS := $(wildcard figures/[0-9][0-9][0-9]/*.png figures/[0-9][0-9][0-9]/provenance.json \
  figures/[0-9][0-9][0-9]/.run-manifest.json figures/executed/*.ipynb \
  paperlib/report/templates/* paperlib/report/static/* docs/*.md docs/*/*.md $(REFERENCE)/figures/*/*.png)
figures/report/index.html: $(REPORT_INPUTS) $(PAPERLIB) $(STAMP)
	$(PY) -m paperlib.report --figures figures --out figures/report

report: figures/report/index.html ## build the HTML report figures/report/ from what figures/ holds (run make reproduce first)
	@echo "open figures/report/index.html"

# A new paper's skeleton (paperlib/new_paper/): data with an example input and claim, a placeholder model, the paper's
# package, its tests, notebook, docs page and nbval fixture, all passing make test as written (docs/extending.md).
new-paper: $(STAMP) ## write a new paper's skeleton: make new-paper ID=006 NAME=short_name TITLE="The paper's title"
	@$(PY) -m paperlib.new_paper "$(ID)" --name "$(NAME)" --title "$(TITLE)"

lock: ## re-resolve requirements.in into requirements.lock (in a scratch venv)
	@tmp=$$(mktemp -d) && "$(PYTHON)" -m venv $$tmp/v && $$tmp/v/bin/pip install --quiet -r requirements.in \
	  && { sed -n '1,2p' requirements.lock; $$tmp/v/bin/pip freeze --all | grep -v -E '^(pip|setuptools|wheel)=='; } > requirements.lock.new \
	  && mv requirements.lock.new requirements.lock && rm -rf $$tmp && echo "requirements.lock updated"

clean: ## remove generated outputs (figures/, executed notebooks)
	find figures -mindepth 1 ! -name .gitignore -exec rm -rf {} +

clean-venv: ## remove the virtual environment
	rm -rf $(VENV)
