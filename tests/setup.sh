#!/bin/sh
# Everything the tests need: the project with its test extras, and a real headless browser
# (Debian's chromium) for the page test of the HTML export.
set -e
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
