#!/usr/bin/env bash
# pqlab's two entry points; each installs what it needs, idempotently, then runs.
#   ./run.sh bench [pqlab bench options]   benchmark the library on the default platform
#   ./run.sh test  [pytest options]        the whole test suite
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(python3 python3-venv python3-pip git gcc libc6-dev gcc-arm-none-eabi libnewlib-arm-none-eabi
  picolibc-arm-none-eabi qemu-system-arm qemu-system-misc qemu-user gcc-riscv64-unknown-elf
  picolibc-riscv64-unknown-elf gcc-aarch64-linux-gnu libc6-dev-arm64-cross valgrind chromium-headless-shell clang-19 llvm-19
  clang-format-19 cmake verilator yosys patch)

install_debian() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "run.sh: installing Debian packages: ${missing[*]}" >&2
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
}

install_python() {
  local py=python3
  if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv >&2
  fi
  # reinstall only when the project's metadata changed
  local stamp=.venv/.pqlab-installed
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip >&2
    .venv/bin/python -m pip install -q -e '.[test]' >&2
    touch "$stamp"
  fi
}

build_sim() {
  if [ -f sim/Cargo.toml ]; then
    # cargo, with rustfmt and clippy for the lint tests: Debian's where no Rust toolchain exists
    local need=()
    export PATH="$HOME/.cargo/bin:$PATH"
    command -v cargo >/dev/null 2>&1 || need+=(cargo)
    command -v rustfmt >/dev/null 2>&1 || need+=(rustfmt)
    command -v cargo-clippy >/dev/null 2>&1 || need+=(rust-clippy)
    if ((${#need[@]})); then
      local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
      echo "run.sh: installing Debian packages: ${need[*]}" >&2
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
    fi
    PATH="$HOME/.cargo/bin:$PATH" cargo build --release -q --manifest-path sim/Cargo.toml >&2
  fi
}

cmd=${1:-}
shift || true
install_debian
install_python
build_sim
export PATH="$PWD/.venv/bin:$PATH"
case "$cmd" in
  bench) exec pqlab bench "$@" ;;
  test) exec python -m pytest -n "${PQLAB_TEST_JOBS:-2}" "$@" ;;
  *) echo "usage: ./run.sh bench|test [options]" >&2; exit 2 ;;
esac
