#!/bin/bash
# The bot media bench (issue 25): inside a private loopback-only network namespace, rtpengine +
# Kamailio (deploy/telephony) with SIPp as the customers behind the trunk address (they listen,
# then talk over the bot's prompt), then bench/bot-media.ts runs N bot legs on the app's sip line
# while the main event loop is kept busy, once with the media in the main loop (off) and once in
# the media thread (on). Needs root (or user namespaces) and the packages of `npm run
# telephony:install`. Usage: bash bench/bot-media.sh [legs] [off|on ...] (default 100 off on)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BOT_MEDIA_IN_NS:-}" ]; then
  exec unshare --net env BOT_MEDIA_IN_NS=1 bash "$0" "$@"
fi
ip link set lo up
ulimit -c 0
RUN="$PWD/.tmp/bot-media-bench"
rm -rf "$RUN"
mkdir -p "$RUN"
export TELEPHONY_RUN_DIR="$RUN/telephony"
export SIP_INTERNAL_SECRET="bot-media-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export SIP_APP_ADDR=127.0.0.1:5070 RTP_MIN=30000 RTP_MAX=31999
SIPP_PID=""
cleanup() {
  [ -n "$SIPP_PID" ] && kill "$SIPP_PID" 2>/dev/null || true
  bash deploy/telephony/down.sh >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash deploy/telephony/up.sh >/dev/null
sipp -sf bench/bot-media-uas.xml -i 127.0.0.1 -p 5080 -mi 127.0.0.1 -mp 6000 -nostdin -m 100000 \
  -trace_err -error_file "$RUN/sipp-errors.log" >"$RUN/sipp.log" 2>&1 &
SIPP_PID=$!
for _ in $(seq 1 50); do ss -lnu | grep -q ' 127.0.0.1:5080 ' && break; sleep 0.1; done
node --import tsx bench/bot-media.ts "$@"
