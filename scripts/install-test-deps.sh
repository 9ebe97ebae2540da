#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh Debian 12 machine with Python 3.11:
# the AVR toolchain and emulator (firmware tests), clang with its fuzzer runtime (the parser's
# libFuzzer target), OpenCV's sample images (the chessboard calibration test), a headless
# Chromium (dashboard tests, driven by Playwright; no browser is ever downloaded), and the
# package itself in editable mode with its test extras.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  gcc-avr avr-libc arduino-core-avr            # firmware: compiler, libc, Arduino core
  simavr libsimavr-dev libsimavrparts1         # firmware: the AVR emulator and its library
  libelf-dev pkg-config g++ make               # the emulator harness and host unit tests
  clang libclang-rt-14-dev                     # libFuzzer target of the firmware's parser
  opencv-doc                                   # OpenCV's sample chessboard photographs
  chromium fonts-dejavu-core                   # the dashboard in a real browser
)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}"

python3 -m pip install --quiet --upgrade pip
python3 -m pip install --quiet -e '.[test]'
