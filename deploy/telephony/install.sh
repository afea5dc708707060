#!/bin/bash
# npm run telephony:install — the Debian packages of the sip line (Debian 12 bookworm, as root).
# rtpengine-daemon, not the rtpengine metapackage (that one pulls a DKMS kernel module build).
# baresip-core, sip-tester (SIPp), espeak-ng and sox are only needed by the real-call test and the
# capacity bench (the callee / the trunk, the synthesized prompt).
set -euo pipefail
# UDP receive buffers of 4 MB for Kamailio and the app's UA (sysctl-sip.conf); best effort (a
# container may not let it write /proc/sys)
SYSCTL_SRC="$(cd "$(dirname "$0")" && pwd)/sysctl-sip.conf"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ "$(sysctl -n net.core.rmem_max 2>/dev/null || echo 0)" -lt 4194304 ]; then
  $SUDO install -m 644 "$SYSCTL_SRC" /etc/sysctl.d/60-crm-sip.conf 2>/dev/null || true
  $SUDO sysctl -q -p /etc/sysctl.d/60-crm-sip.conf 2>/dev/null || echo "note: net.core.rmem_max stays $(sysctl -n net.core.rmem_max 2>/dev/null) (see deploy/telephony/sysctl-sip.conf)"
fi
PKGS=(kamailio kamailio-websocket-modules kamailio-utils-modules kamailio-extra-modules
      rtpengine-daemon rtpengine-utils baresip-core sip-tester espeak-ng sox iproute2 util-linux)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then echo "telephony packages already installed"; exit 0; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
# the packages may start system services; the app runs its own stack (npm run telephony:up)
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now kamailio rtpengine-daemon 2>/dev/null || true
fi
