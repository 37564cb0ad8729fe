# Two entry points (see README): `make check` and `make test`. Both create .venv when missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: check test certify verify bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[all]'
	touch $(STAMP)

check: $(STAMP)
	$(BIN)/attncert check

test: $(STAMP)
	$(BIN)/python -m pytest

certify: $(STAMP)
	$(BIN)/attncert certify --out certificates

verify: $(STAMP)
	$(BIN)/attncert verify certificates

bench: $(STAMP)
	$(BIN)/python benchmarks/run_benchmarks.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
