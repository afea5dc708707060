import { parseArgs } from 'node:util';
import type { DeviceClientFrame, DeviceServerFrame } from '@crm/contracts';
import WebSocket from 'ws';
import { DEMO_DEVICE } from '../modules/extensions/extensions.service';
import { SIM_RING_DELAY_SECONDS, simOutcomeOf } from '../telephony/sim/sim-provider';

/**
 * A simulated phone for device-bound extensions (merchantType 2): connects to /ws/device,
 * takes dial and hang-up commands and reports like the phone app would, following the sim
 * line's outcome table (last digit of the number: 1–4 answered, 6 busy, 7 空号, 8 关机, …).
 *
 *   npm run device:sim -- --imei 860000000000004 [--secret …] [--url ws://localhost:3000/ws/device] [--talk 30]
 *
 * The demo device (赵六, extension 8004) needs no --secret.
 */
const { values } = parseArgs({
  options: {
    imei: { type: 'string', default: DEMO_DEVICE.imei },
    secret: { type: 'string' },
    url: { type: 'string', default: 'ws://localhost:3000/ws/device' },
    talk: { type: 'string', default: '30' },
  },
});
const imei = values.imei;
const secret = values.secret ?? (imei === DEMO_DEVICE.imei ? DEMO_DEVICE.secret : '');
if (!secret) {
  console.error('缺少参数: --secret（在「分机管理」中查看设备密钥）');
  process.exit(1);
}
const talkSeconds = Number(values.talk) || 30;
const unix = () => Math.floor(Date.now() / 1000);
const calls = new Map<string, { timers: NodeJS.Timeout[]; isAnswered: boolean }>();
let attempt = 0;

const connect = () => {
  const ws = new WebSocket(`${values.url}?imei=${encodeURIComponent(imei)}`, { headers: { 'x-device-secret': secret } });
  const report = (frame: DeviceClientFrame) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
  const heartbeat = setInterval(() => report({ type: 'heartbeat' }), 30_000);
  const later = (uuid: string, seconds: number, fn: () => void) => calls.get(uuid)?.timers.push(setTimeout(fn, seconds * 1000));
  const finish = (uuid: string, frame: DeviceClientFrame) => {
    const call = calls.get(uuid);
    if (!call) return;
    for (const t of call.timers) clearTimeout(t);
    calls.delete(uuid);
    report(frame);
  };

  const onDial = (uuid: string, number: string) => {
    console.log(`拨号 ${number}（${uuid}）`);
    calls.set(uuid, { timers: [], isAnswered: false });
    const outcome = simOutcomeOf(number);
    report({ type: 'report', uuid, dialTime: unix() });
    if (outcome.kind === 'answer') {
      later(uuid, SIM_RING_DELAY_SECONDS + outcome.ringSeconds, () => {
        const call = calls.get(uuid);
        if (call) call.isAnswered = true;
        console.log(`  已接通 ${number}`);
        report({ type: 'report', uuid, dialingTime: unix() });
        later(uuid, outcome.talkSeconds ?? talkSeconds, () => {
          console.log(`  对方挂断 ${number}`);
          finish(uuid, { type: 'report', uuid, dialedTime: unix(), hangupPeople: 2 });
        });
      });
    } else if (outcome.kind === 'fail') {
      later(uuid, outcome.afterSeconds, () => {
        console.log(`  未接通 ${number}: ${outcome.cause}`);
        const dmMsg = { empty_number: '您拨打的号码是空号', powered_off: '您拨打的电话已关机' }[outcome.cause as string];
        finish(uuid, dmMsg ? { type: 'report', uuid, dmMsg } : { type: 'report', uuid, dialedTime: unix(), hangupPeople: 2 });
      });
    }
  };

  ws.on('open', () => {
    attempt = 0;
  });
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as DeviceServerFrame;
    if (frame.type === 'hello') console.log(`设备 ${frame.imei} 已连接，分机 ${frame.sipUser}`);
    else if (frame.type === 'dial') onDial(frame.uuid, frame.number);
    else if (frame.type === 'hangup') {
      console.log(`挂断（${frame.uuid}）`);
      finish(frame.uuid, { type: 'report', uuid: frame.uuid, dialedTime: unix(), hangupPeople: 1 });
    } else if (frame.type === 'error') console.error(`服务器: ${frame.msg}`);
  });
  ws.on('close', (code) => {
    clearInterval(heartbeat);
    if (code === 4003) {
      console.error('设备认证失败：检查 --imei 和 --secret');
      process.exit(1);
    }
    // the same backoff as the call socket (SPEC §9)
    const delay = Math.min(64_000, 1000 * 2 ** attempt + Math.random() * 1000);
    attempt++;
    console.log(`连接已断开（${code}），${Math.round(delay / 1000)} 秒后重连`);
    setTimeout(connect, delay);
  });
  ws.on('error', () => undefined);
};

connect();
