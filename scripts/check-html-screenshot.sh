#!/usr/bin/env bash
# Renders a rigsmith report (`--report DIR` writes DIR/report.html) in headless
# Chromium and saves a screenshot of its first screen, so a person (or a reviewer) can
# look at what a browser shows.
#
#   scripts/check-html-screenshot.sh report.html [out.png] [WIDTHxHEIGHT]
#
# The window is 1280x1800 unless given (1280x900 is a laptop's first screen). Needs
# Chromium (apt-get install chromium, or chromium-headless-shell). Exits non-zero when
# the page cannot be rendered or the screenshot is empty.
set -euo pipefail
html="${1:?usage: $0 report.html [out.png]}"
out="${2:-${html%.html}.png}"
size="${3:-1280x1800}"
browser="$(command -v chromium || command -v chromium-headless-shell || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ] && [ -x /usr/lib/chromium/chromium-headless-shell ]; then
  browser=/usr/lib/chromium/chromium-headless-shell
fi
if [ -z "$browser" ]; then
  echo "error: chromium not found (apt-get install chromium)" >&2
  exit 2
fi
abs="$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
# Software WebGL (SwiftShader), so the report's 3D viewer draws as it does for a user.
"$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
  --use-angle=swiftshader --enable-unsafe-swiftshader --ignore-gpu-blocklist \
  --virtual-time-budget=5000 --window-size="${size/x/,}" --screenshot="$out" "file://$abs" >/dev/null 2>&1
bytes=$(stat -c %s "$out" 2>/dev/null || echo 0)
if [ "$bytes" -lt 10000 ]; then
  echo "error: screenshot $out is missing or empty ($bytes bytes)" >&2
  exit 1
fi
echo "wrote $out ($bytes bytes)"
