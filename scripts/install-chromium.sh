#!/bin/sh
# Install Debian's Chromium for the browser tests (pytest -m browser), unless it is already there.
# Idempotent; needs root (CI runs as root). Override the binary the tests use with PAPERKG_CHROMIUM.
set -eu

if [ -x /usr/bin/chromium ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null)"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-chromium.sh: needs root to run apt-get (try: sudo $0)" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
echo "installed: $(/usr/bin/chromium --version 2>/dev/null)"
