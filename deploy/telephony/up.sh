#!/bin/bash
# npm run telephony:up — renders the templates and starts rtpengine, then Kamailio, next to the app.
# Everything listens on SIP_IP (default 127.0.0.1). Settings (environment):
#   SIP_INTERNAL_SECRET  required, the same value the app has (TELEPHONY=sip)
#   APP_URL              the app, as Kamailio reaches it      (default http://127.0.0.1:$PORT, PORT 3000)
#   SIP_IP SIP_PORT      SIP/UDP for the trunk                 (127.0.0.1 5060)
#   WS_PORT              SIP over WebSocket for the browsers   (8080: ws://SIP_IP:WS_PORT)
#   TRUNK_HOSTPORT       the SIP trunk (UDP)                   (127.0.0.1:5080); INVITEs from its IP are inbound calls
#   SIP_APP_ADDR         the app's own SIP UA (call control)   (127.0.0.1:5070); trusted by address + the secret
#   APP_NUMBERS          regex of the dialled numbers the trunk sends to the app UA instead of an
#                        extension (default ^$: none)
#   SIP_APP2_ADDR APP2_NUMBERS  a second app UA on APP_IP (another port) and the dialled numbers the
#                        trunk sends to it (default: SIP_APP_ADDR and ^$, none); the sip test runs
#                        its scenarios' UA on SIP_APP_ADDR and the app under test on this one
#   RTPENGINE_NG RTPENGINE_CLI RTP_MIN RTP_MAX                 (127.0.0.1:2223 127.0.0.1:9900 30000 30199)
#   RTPENGINE_LOG_LEVEL  5 (notice); 6 logs each offer/answer with rtpengine's time for it
#   TELEPHONY_RUN_DIR    rendered configs, pid files, logs, recordings (.tmp/telephony); the app's
#                        SIP_RECORDING_DIR is $TELEPHONY_RUN_DIR/recordings
# `up.sh --kamailio-only` restarts Kamailio alone (a changed kamailio.cfg.in; rtpengine keeps its calls).
# Browsers see their WebSocket drop and register again (the softphone re-initialises after 5 s).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RUN="$(mkdir -p "${TELEPHONY_RUN_DIR:-.tmp/telephony}" && cd "${TELEPHONY_RUN_DIR:-.tmp/telephony}" && pwd)"
: "${SIP_INTERNAL_SECRET:?SIP_INTERNAL_SECRET is required}"
SIP_IP=${SIP_IP:-127.0.0.1}
TRUNK_HOSTPORT=${TRUNK_HOSTPORT:-127.0.0.1:5080}
SIP_APP_ADDR=${SIP_APP_ADDR:-127.0.0.1:5070}
declare -A V=(
  [APP_URL]=${APP_URL:-http://127.0.0.1:${PORT:-3000}}
  [SECRET]=$SIP_INTERNAL_SECRET
  [SIP_IP]=$SIP_IP [SIP_PORT]=${SIP_PORT:-5060} [WS_PORT]=${WS_PORT:-8080}
  [TRUNK_HOSTPORT]=$TRUNK_HOSTPORT [TRUNK_IP]=${TRUNK_HOSTPORT%%:*}
  [APP_HOSTPORT]=$SIP_APP_ADDR [APP_IP]=${SIP_APP_ADDR%%:*}
  [APP_NUMBERS]=${APP_NUMBERS:-^\$}
  [APP2_HOSTPORT]=${SIP_APP2_ADDR:-$SIP_APP_ADDR} [APP2_NUMBERS]=${APP2_NUMBERS:-^\$}
  [MEDIA_IP]=${MEDIA_IP:-$SIP_IP}
  [RTPENGINE_NG]=${RTPENGINE_NG:-127.0.0.1:2223} [RTPENGINE_CLI]=${RTPENGINE_CLI:-127.0.0.1:9900}
  [RTP_MIN]=${RTP_MIN:-30000} [RTP_MAX]=${RTP_MAX:-30199} [RTPENGINE_LOG_LEVEL]=${RTPENGINE_LOG_LEVEL:-5}
  [RUN_DIR]=$RUN
  [MODULE_DIR]=$(dirname "$(ls /usr/lib/*/kamailio/modules/tm.so 2>/dev/null | head -1)")/
)
render() { # template output
  local s; s=$(cat "$1")
  for k in "${!V[@]}"; do s=${s//@$k@/${V[$k]}}; done
  if grep -q '@[A-Z_]*@' <<<"$s"; then echo "unrendered placeholder in $1: $(grep -o '@[A-Z_]*@' <<<"$s" | sort -u | tr '\n' ' ')" >&2; exit 1; fi
  printf '%s\n' "$s" >"$2"
}
mkdir -p "$RUN/recordings" "$RUN/logs"
[ "${1:-}" = "--kamailio-only" ] || rm -f "$RUN/logs/kamailio.log" "$RUN/logs/rtpengine.log"
render "$HERE/kamailio.cfg.in" "$RUN/kamailio.cfg"
render "$HERE/rtpengine.conf.in" "$RUN/rtpengine.conf"
KAMAILIO_ONLY=0
[ "${1:-}" = "--kamailio-only" ] && KAMAILIO_ONLY=1
if [ "$KAMAILIO_ONLY" = 1 ]; then
  TELEPHONY_RUN_DIR="$RUN" "$HERE/down.sh" kamailio >/dev/null 2>&1 || true
else
  TELEPHONY_RUN_DIR="$RUN" "$HERE/down.sh" >/dev/null 2>&1 || true
fi

alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }
waitport() { # proto addr:port name
  for _ in $(seq 1 100); do
    ss -ln"$1" 2>/dev/null | grep -q " $2 " && return 0
    alive "$3" || { echo "$3 exited, see $RUN/logs/$3.log" >&2; tail -20 "$RUN/logs/$3.log" >&2; return 1; }
    sleep 0.1
  done
  echo "timeout waiting for $3 on $1 $2" >&2; return 1
}
start() { # name cmd... (a restart adds to the log)
  local name=$1; shift
  setsid "$@" </dev/null >>"$RUN/logs/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}
kamailio -c -f "$RUN/kamailio.cfg" >"$RUN/logs/kamailio-check.log" 2>&1 || { cat "$RUN/logs/kamailio-check.log" >&2; exit 1; }
if [ "$KAMAILIO_ONLY" = 0 ]; then
  start rtpengine rtpengine --config-file="$RUN/rtpengine.conf" --config-section=crm --pidfile="$RUN/rtpengine.real.pid"
  # Kamailio pings rtpengine on start: rtpengine must listen first
  waitport u "${V[RTPENGINE_NG]}" rtpengine
fi
start kamailio kamailio -f "$RUN/kamailio.cfg" -DD -E
waitport u "$SIP_IP:${V[SIP_PORT]}" kamailio
waitport t "$SIP_IP:${V[WS_PORT]}" kamailio
echo "telephony up: ws://$SIP_IP:${V[WS_PORT]} (SIP_WS_URL), http://$SIP_IP:${V[WS_PORT]}/RPC (SIP_RPC_URL), recordings $RUN/recordings (SIP_RECORDING_DIR), logs $RUN/logs"
