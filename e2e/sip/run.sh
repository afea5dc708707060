#!/bin/bash
# npm run test:sip — the real-call test (issue 7). Runs everything inside a private network namespace
# (unshare --net, loopback only): rtpengine + Kamailio (deploy/telephony), baresip as the trunk/customer,
# the app with TELEPHONY=sip, and Playwright driving the web UI in headless Chromium with fake media.
# Every process it starts is stopped on exit, failure included. Needs root (or user namespaces) and
# the packages of `npm run telephony:install`.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${SIP_TEST_IN_NS:-}" ]; then
  exec unshare --net env SIP_TEST_IN_NS=1 bash "$0" "$@"
fi
ip link set lo up
# rtpengine may dump core when stopped with calls still open: never into the work tree
ulimit -c 0
RUN="$PWD/.tmp/sip-test"
rm -rf "$RUN"
mkdir -p "$RUN/baresip"
export TELEPHONY_RUN_DIR="$RUN/telephony"
export SIP_INTERNAL_SECRET="sip-test-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export SIP_TEST_PORT=${SIP_TEST_PORT:-3950}
export APP_URL="http://127.0.0.1:$SIP_TEST_PORT"
export SIP_TEST_RUN="$RUN"
# call control (issue 12): the app UA that Kamailio trusts (the scenarios' line), and the trunk
# numbers it answers itself
export SIP_APP_ADDR=127.0.0.1:5070
export APP_NUMBERS='^4008'
# AI接待 (issue 16): the app's own UA (SIP_APP_ADDR of playwright.sip.config.ts) takes 4009…
export SIP_APP2_ADDR=127.0.0.1:5071
export APP2_NUMBERS='^4009'
BARESIP_PID=""
cleanup() {
  [ -n "$BARESIP_PID" ] && kill "$BARESIP_PID" 2>/dev/null || true
  bash deploy/telephony/down.sh >/dev/null 2>&1 || true
}
trap cleanup EXIT
node e2e/sip/tones.mjs "$RUN"
mkdir -p "$RUN/baresip-dumps"
# the app's prompt: synthesized Mandarin, 8 kHz mono
espeak-ng -v cmn-latn-pinyin -w "$RUN/prompt-22k.wav" "您好，这里是云呼科技"
sox "$RUN/prompt-22k.wav" -r 8000 -c 1 -b 16 "$RUN/prompt.wav"
sed "s#@RUN@#$RUN#g" e2e/sip/baresip.config.in >"$RUN/baresip/config"
cp e2e/sip/baresip.accounts "$RUN/baresip/accounts"
bash deploy/telephony/up.sh
baresip -f "$RUN/baresip" </dev/null >"$RUN/baresip.log" 2>&1 &
BARESIP_PID=$!
for _ in $(seq 1 50); do ss -lnu | grep -q ' 127.0.0.1:5080 ' && break; sleep 0.1; done
[ "${SIP_TEST_BUILD:-1}" = 0 ] || npm run build >"$RUN/build.log" 2>&1
npx playwright test -c e2e/sip/playwright.sip.config.ts "$@"
