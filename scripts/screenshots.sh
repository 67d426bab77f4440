#!/usr/bin/env bash
# Screenshots of the documentation site's front page and of one notebook, in headless Chromium:
#   bash scripts/screenshots.sh        (needs chromium, and the test extra with nbconvert)
# writes docs/screenshots/front-page.png and docs/screenshots/notebook.png.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
NO_MKDOCS_2_WARNING=1 mkdocs build --strict -d "$work/site"
cp examples/holed_board.ipynb "$work/"
(cd "$work" && PYTHONPATH="$OLDPWD" jupyter nbconvert --to html --execute holed_board.ipynb --output holed_board.html)
shot() {
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$work")" --screenshot="$1" \
    --window-size=1280,900 "$2"
}
shot docs/screenshots/front-page.png "file://$work/site/index.html"
shot docs/screenshots/notebook.png "file://$work/holed_board.html"
