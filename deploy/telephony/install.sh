#!/bin/bash
# npm run telephony:install — the Debian packages of the sip line (Debian 12 bookworm, as root).
# rtpengine-daemon, not the rtpengine metapackage (that one pulls a DKMS kernel module build).
# baresip-core, sip-tester (SIPp), espeak-ng and sox are only needed by the real-call test and the
# capacity bench (the callee / the trunk, the synthesized prompt).
set -euo pipefail
PKGS=(kamailio kamailio-websocket-modules kamailio-utils-modules kamailio-extra-modules
      rtpengine-daemon rtpengine-utils baresip-core sip-tester espeak-ng sox iproute2 util-linux)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then echo "telephony packages already installed"; exit 0; fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
# the packages may start system services; the app runs its own stack (npm run telephony:up)
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now kamailio rtpengine-daemon 2>/dev/null || true
fi
