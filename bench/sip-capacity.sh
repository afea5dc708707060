#!/bin/bash
# The sip capacity bench (issue 12): inside a private loopback-only network namespace, rtpengine +
# Kamailio (deploy/telephony) with SIPp as the customer side behind the trunk address, then
# bench/sip-capacity.ts drives the app's call-control line. Needs root (or user namespaces) and the
# packages of `npm run telephony:install`. Usage: bash bench/sip-capacity.sh [legs...] (default 10 20 40)
# SIP_BENCH_PRIORITY=1 runs the media path (Node, rtpengine, SIPp) at nice -10: on a machine shared
# with other work it shows which gaps come from the OS scheduler rather than from the line.
# SIP_BENCH_CPS=N paces each batch's INVITEs at N per second (default 0: all at once);
# SIP_BENCH_MODES=play leaves out the forward runs; SIP_BENCH_OUT names the results file;
# SIPP_SCENARIO and SIPP_BUFF_SIZE replace the far end (an older scenario, SIPp's socket buffer).
# SIP_BENCH_PCAP=1 also captures the SIP packets on lo (tcpdump): Kamailio's own time per message.
# SIPp writes its short message trace (bench/sip-capacity.ts takes set-up apart with it) and
# gets a 1 MB socket buffer (its default 64 KB is small next to a burst of 200 legs at once).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SIP_BENCH_IN_NS:-}" ]; then
  exec unshare --net env SIP_BENCH_IN_NS=1 bash "$0" "$@"
fi
ip link set lo up
ulimit -c 0
RUN="$PWD/.tmp/sip-bench"
rm -rf "$RUN"
mkdir -p "$RUN"
export TELEPHONY_RUN_DIR="$RUN/telephony"
export SIP_INTERNAL_SECRET="sip-bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export SIP_APP_ADDR=127.0.0.1:5070 RTP_MIN=30000 RTP_MAX=31999
SIPP_PID=""
TCPDUMP_PID=""
cleanup() {
  [ -n "$SIPP_PID" ] && kill "$SIPP_PID" 2>/dev/null || true
  [ -n "$TCPDUMP_PID" ] && kill "$TCPDUMP_PID" 2>/dev/null || true
  bash deploy/telephony/down.sh >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash deploy/telephony/up.sh >/dev/null
sipp -sf "${SIPP_SCENARIO:-bench/sip-carrier-uas.xml}" -i 127.0.0.1 -p 5080 -mi 127.0.0.1 -mp 6000 -nostdin -m 100000 \
  -buff_size "${SIPP_BUFF_SIZE:-1048576}" -trace_shortmsg -shortmessage_file "$RUN/sipp-short.log" \
  -trace_err -error_file "$RUN/sipp-errors.log" >"$RUN/sipp.log" 2>&1 &
SIPP_PID=$!
export SIPP_PID SIPP_SHORTMSG="$RUN/sipp-short.log"
for _ in $(seq 1 50); do ss -lnu | grep -q ' 127.0.0.1:5080 ' && break; sleep 0.1; done
if [ "${SIP_BENCH_PCAP:-0}" = 1 ]; then
  tcpdump -i lo -U -s 0 -w "$RUN/sip.pcap" 'udp and (port 5060 or port 5070 or port 5080)' >/dev/null 2>&1 &
  TCPDUMP_PID=$!
  export SIP_BENCH_PCAP_FILE="$RUN/sip.pcap"
  sleep 0.5
fi
NICE=()
if [ "${SIP_BENCH_PRIORITY:-0}" = 1 ]; then
  renice -n -10 -p "$SIPP_PID" "$(cat "$TELEPHONY_RUN_DIR/rtpengine.pid")" >/dev/null
  NICE=(nice -n -10)
fi
"${NICE[@]}" node --import tsx bench/sip-capacity.ts "$@"
