#!/bin/sh
# The project's own virtual environment, .venv, made when missing; both Quick start commands use it,
# so a system Python that refuses pip (PEP 668: Debian's and Ubuntu's own python3) is never touched.
#   sh tests/setup.sh app   the project alone (enough for `campaign`)
#   sh tests/setup.sh       the project with its test extras, and Debian's chromium for the page tests
#                           (Playwright drives it through executable_path: no browser is downloaded)
# Run again, it installs only when pyproject.toml changed (a stamp in .venv says what it installed).
set -e
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1   # never `playwright install`: the browser is Debian's
PYTHON=${PYTHON:-python3}
MODE=${1:-test}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

apt_install() {
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x .venv/bin/python ]; then
    rm -rf .venv
    if ! "$PYTHON" -m venv .venv 2>/dev/null; then  # Debian without python3-venv: no ensurepip
        rm -rf .venv
        command -v apt-get >/dev/null 2>&1 && apt_install python3-venv
        "$PYTHON" -m venv .venv
    fi
fi

SUM=$(cksum < pyproject.toml | cut -d' ' -f1)
STAMP=.venv/.campaign-installed
case "$MODE" in
    app) WANT=".";       DONE=$(grep -s -e "^$SUM app$" -e "^$SUM test$" "$STAMP" || true) ;;
    *)   WANT=".[test]"; DONE=$(grep -s -e "^$SUM test$" "$STAMP" || true) ;;
esac
if [ -z "$DONE" ] || [ ! -x .venv/bin/campaign ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e "$WANT"
    echo "$SUM $MODE" > "$STAMP"
fi

if [ "$MODE" != app ] && ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium
fi
