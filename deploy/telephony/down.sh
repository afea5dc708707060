#!/bin/bash
# npm run telephony:down — stops the Kamailio and rtpengine that telephony:up started (by their pid files only).
# `down.sh kamailio` stops Kamailio alone.
set -u
RUN="${TELEPHONY_RUN_DIR:-.tmp/telephony}"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(kamailio rtpengine)
for name in "${names[@]}"; do
  f="$RUN/$name.pid"
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$f"
  echo "$name stopped"
done
exit 0
