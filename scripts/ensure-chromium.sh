#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (or $CHROMIUM_PATH, as the tests read it) for the browser
# tests (test/e2e). Fails when it is not there at the end: CI requires the browser tests to run.
# Idempotent: does nothing when it is already installed. Uses apt-get only (Debian/Ubuntu);
# never downloads a browser from anywhere else. Needs root (or sudo) when it has to install.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium yourself." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-chromium: $CHROMIUM is missing and installing it needs root (no sudo found)." >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing Debian's chromium package..." >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM installed")" >&2
