#!/bin/bash
# Bot media while the API is under load (issue 25): bench/load.ts (200 clients on 2 app processes and
# PostgreSQL) runs for LOAD_SECONDS; once it is warm, bench/bot-media.sh runs its legs on the sip line
# in the media thread (modes on-quiet and on, or those given). Everything shares the machine's cores.
# API_NICE=N (default 0) lowers the app processes' and the load client's priority (every thread, as a
# systemd unit's Nice= does), to see what giving the calls priority over the API buys.
# SPLIT_CORES=1 runs the load (client, app processes; PostgreSQL is pinned by hand) on core 0 and the
# bot legs with Kamailio, rtpengine and SIPp on core 1, as a host with a core kept for calls would.
# Usage: API_NICE=10 bash bench/bot-media-under-load.sh [legs] [modes...]; figures in .tmp/bot-media-under-load/
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=.tmp/bot-media-under-load
mkdir -p "$OUT"
LOAD_SECONDS="${LOAD_SECONDS:-75}"
API_NICE="${API_NICE:-0}"
REDIS_PORT=6391
redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 || redis-server --port "$REDIS_PORT" --save '' --daemonize yes >/dev/null
ON_API=() ON_CALLS=()
[ "${SPLIT_CORES:-0}" = 1 ] && ON_API=(taskset -c 0) ON_CALLS=(taskset -c 1)
LOAD_REDIS_URL="redis://127.0.0.1:$REDIS_PORT" "${ON_API[@]}" npx tsx bench/load.ts --clients=200 --rate=520 \
  --seconds="$LOAD_SECONDS" --workers=2 >"$OUT/load.log" 2>&1 &
LOAD_PID=$!
trap 'kill $LOAD_PID 2>/dev/null || true' EXIT
# warm: the app processes listen and the clients have started
for _ in $(seq 1 120); do grep -q '进程在端口' "$OUT/load.log" && break; sleep 1; done
sleep 10
renice_all() { for task in /proc/"$1"/task/*; do renice -n "$API_NICE" -p "${task##*/}" >/dev/null 2>&1 || true; done; }
if [ "$API_NICE" != 0 ]; then
  for pid in $LOAD_PID $(pgrep -f 'bench/load.ts') $(pgrep -f 'dist/cluster.mjs'); do renice_all "$pid"; done
fi
"${ON_CALLS[@]}" bash bench/bot-media.sh "${@:-100}" $([ $# -le 1 ] && echo on-quiet on) | tee "$OUT/bot-media.log"
wait $LOAD_PID
trap - EXIT
tail -n 14 "$OUT/load.log"
