#!/usr/bin/env bash
# Renders a `rigsmith check --html` report in headless Chromium and saves a
# screenshot, so a person (or a reviewer) can look at what a browser shows.
#
#   scripts/check-html-screenshot.sh report.html [out.png]
#
# Needs `chromium` (apt-get install chromium). Exits non-zero when the page cannot be
# rendered or the screenshot is empty.
set -euo pipefail
html="${1:?usage: $0 report.html [out.png]}"
out="${2:-${html%.html}.png}"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
  echo "error: chromium not found (apt-get install chromium)" >&2
  exit 2
fi
abs="$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1280,1800 --screenshot="$out" "file://$abs" >/dev/null 2>&1
size=$(stat -c %s "$out" 2>/dev/null || echo 0)
if [ "$size" -lt 10000 ]; then
  echo "error: screenshot $out is missing or empty ($size bytes)" >&2
  exit 1
fi
echo "wrote $out ($size bytes)"
