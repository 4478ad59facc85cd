#!/usr/bin/env bash
# Checks a rigsmith report's 3D viewer in Firefox (Debian's firefox-esr) from a file://
# URL: WebGL up or the line saying why not, no console error, a pose moving the pixels
# at its joint. Runs under xvfb-run when installed (headless Firefox finds no GL
# without a display, so the viewer says it is off; that is the no-WebGL path).
#
#   bench/viewer_firefox.sh report.html [out.json]
#
# Needs firefox-esr and Node 20+ (WebSocket); xvfb (apt-get install xvfb) for WebGL.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
html="${1:?usage: $0 report.html [out.json]}"
command -v "${FIREFOX:-firefox-esr}" >/dev/null || { echo "error: firefox-esr not found (apt-get install firefox-esr)" >&2; exit 2; }
run=(node --experimental-websocket --no-warnings "$here/viewer_firefox.mjs" "$html" ${2:+"$2"})
if command -v xvfb-run >/dev/null && [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x1024x24" "${run[@]}"
fi
exec "${run[@]}"
