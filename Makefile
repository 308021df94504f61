# apsp: the two commands of the README.
#   make run   installs what is missing, builds, solves the bundled Rome road graph (GPU if present)
#   make test  installs what is missing, builds, runs every test this machine's hardware allows
# Packages come from Debian 12 (apt-get, as root). Set APSP_SKIP_DEPS=1 to skip the install step.

BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
DEB_PACKAGES := cmake ninja-build g++ make libgtest-dev libgmock-dev libbenchmark-dev \
  libcli11-dev nlohmann-json3-dev zlib1g-dev pybind11-dev python3-dev python3-numpy \
  python3-scipy python3-pytest openmpi-bin libopenmpi-dev python3-setuptools python3-wheel \
  python3-build python3-pip python3-venv python3-tqdm python3-networkx python3-igraph \
  clang libclang-rt-14-dev libfuzzer-14-dev libomp-dev libmetis-dev
APSP := $(BUILD)/cli/apsp
HAVE_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1)

.PHONY: all deps build run test test-gpu bench clean

all: build

deps:
	@if [ -z "$(APSP_SKIP_DEPS)" ]; then \
	  missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	  if [ -n "$$missing" ]; then \
	    echo "installing Debian packages:" $$missing; \
	    if [ "$$(id -u)" != 0 ]; then echo "apsp: run as root to install packages (or install them yourself)" >&2; exit 1; fi; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  fi; \
	fi

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@mkdir -p out
	$(APSP) solve data/rome99.gr -o out/rome99-distances.npy --paths out/rome99-paths.npy
	$(APSP) path data/rome99.gr 1 3353 --dist out/rome99-distances.npy --via out/rome99-paths.npy

# Every test this machine can run: gpu-labelled tests only where nvidia-smi sees a GPU.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(if $(HAVE_GPU),,-LE gpu)

test-gpu: build
	cd $(BUILD) && ctest --output-on-failure -L gpu

clean:
	rm -rf $(BUILD) out
