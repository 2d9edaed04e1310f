# Build glue for cardtable.
#   make setup  - system packages (if any), .venv/, editable install with test extras
#   make test   - run the test suite (pytest config lives in pyproject.toml)
#   make demo   - the whole simulated hall (cardtable hall) until Ctrl-C

SHELL := /bin/bash

# Debian packages the project needs on the machine (space separated).
# Installed by `make setup` only when one of them is missing. The fonts after `locales` draw the held-out decks
# (bench/heldout/fonts.py): no training art may use them.
SYSTEM_PACKAGES := mosquitto gcc-avr avr-libc simavr libsimavr-dev libelf-dev gcc libc6-dev chromium fonts-wqy-microhei locales \
	fonts-ebgaramond fonts-league-spartan fonts-crosextra-carlito fonts-oldstandard fonts-cabin fonts-go fonts-comfortaa \
	fonts-stix fonts-symbola fonts-oflb-asana-math fonts-cantarell fonts-junicode fonts-karla fonts-cardo fonts-quattrocento

VENV   := .venv
STAMP  := $(VENV)/.setup-stamp
PYTHON := $(shell command -v python3.11 2>/dev/null || command -v python3)
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup test demo

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt Makefile
	@set -euo pipefail; \
	pkgs="$(strip $(SYSTEM_PACKAGES))"; \
	if [ -n "$$pkgs" ]; then \
	  missing=""; \
	  for p in $$pkgs; do \
	    dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "Installing system packages:$$missing"; \
	    $(SUDO) apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$pkgs; \
	  fi; \
	fi
	@test -n "$(PYTHON)" || { echo "error: neither python3.11 nor python3 found" >&2; exit 1; }
	@if [ ! -x $(VENV)/bin/python ]; then \
	  echo "Creating $(VENV) with $(PYTHON)"; \
	  $(PYTHON) -m venv $(VENV); \
	fi
	$(VENV)/bin/python -m pip install --upgrade pip
	$(VENV)/bin/pip install -c constraints.txt -e '.[test]'
	@touch $@

test: setup
	$(VENV)/bin/python -m pytest -q

demo: setup
	$(VENV)/bin/cardtable hall
