import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { DeviceClientFrame, DeviceServerFrame } from '@crm/contracts';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { deviceChannel } from '../../lib/pubsub';
import { findSipByImei, setDeviceOnline } from '../extensions/extensions.service';
import type { CallRuntime, DeviceMessage } from './call-bus';
import { handleDeviceReport } from './calls-device';

/** Close code: unknown imei or wrong secret. */
const DEVICE_CLOSE_UNAUTHORISED = 4003;
/** Close code: another connection of the same device took over. */
const DEVICE_CLOSE_REPLACED = 4001;

const timeValue = z.union([z.number(), z.string().max(19)]).optional();
const deviceFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat') }),
  z.object({
    type: z.literal('report'),
    uuid: z.string().min(1).max(64),
    dialTime: timeValue,
    dialingTime: timeValue,
    dialedTime: timeValue,
    dmMsg: z.string().max(500).optional(),
    hangupPeople: z.number().int().optional(),
  }),
]);

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The device channel /ws/device?imei=… with header X-Device-Secret (merchantType 2 accounts, DESIGN §6): the phone
 * receives dial and hang-up commands and reports dialTime / dialingTime / dialedTime / dmMsg.
 */
export const registerDeviceSocket = (app: FastifyInstance, rt: CallRuntime) => {
  /** this instance's current connection per imei */
  const current = new Map<string, string>();

  app.get('/ws/device', { websocket: true, schema: { hide: true } }, (socket: WebSocket, req) => {
    const query = req.query as { imei?: string };
    const imei = String(query.imei ?? '');
    // the secret travels in a header: URLs end up in access logs
    const secret = String(req.headers['x-device-secret'] ?? '');
    const connId = randomUUID();
    let sipId = 0;
    let tenantId = 0;
    let unsubscribe: (() => void) | undefined;
    const send = (f: DeviceServerFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(f));
    };
    const pending: string[] = [];
    let isReady = false;

    const onMessage = async (text: string) => {
      let parsed: DeviceClientFrame;
      try {
        const result = deviceFrame.safeParse(JSON.parse(text));
        if (!result.success) return send({ type: 'error', msg: '消息格式错误' });
        parsed = result.data;
      } catch {
        return send({ type: 'error', msg: '消息格式错误' });
      }
      if (parsed.type === 'heartbeat') return send({ type: 'pong' });
      await handleDeviceReport(rt, sipId, parsed);
    };
    socket.on('message', (data) => {
      const text = String(data);
      if (!isReady) {
        pending.push(text);
        return;
      }
      onMessage(text).catch((err) => app.log.error({ err }, 'device report failed'));
    });
    socket.on('close', () => {
      unsubscribe?.();
      if (sipId && current.get(imei) === connId) {
        current.delete(imei);
        void setDeviceOnline(rt.db, tenantId, sipId, false).catch((err) =>
          app.log.error({ err, imei }, 'device offline not saved'),
        );
      }
    });

    const start = async () => {
      const row = imei ? await findSipByImei(rt.db, imei) : undefined;
      if (!row?.sip.deviceSecret || !sameSecret(row.sip.deviceSecret, secret)) {
        send({ type: 'error', msg: '设备认证失败' });
        socket.close(DEVICE_CLOSE_UNAUTHORISED, 'unauthorised');
        return;
      }
      sipId = row.sip.id;
      tenantId = row.sip.tenantId;
      current.set(imei, connId);
      unsubscribe = await rt.bus.subscribe(deviceChannel(imei), (raw) => {
        const m = raw as DeviceMessage;
        if (m.kind === 'command') send(m.frame);
        else if (m.connId !== connId) {
          unsubscribe?.();
          unsubscribe = undefined;
          send({ type: 'error', msg: '设备已在其他连接登录' });
          socket.close(DEVICE_CLOSE_REPLACED, 'replaced');
        }
      });
      if (socket.readyState !== socket.OPEN) return unsubscribe();
      await rt.bus.publish(deviceChannel(imei), { kind: 'login', connId } satisfies DeviceMessage);
      await setDeviceOnline(rt.db, tenantId, sipId, true);
      send({ type: 'hello', imei, sipUser: row.sip.user });
      isReady = true;
      for (const text of pending.splice(0)) await onMessage(text);
    };
    start().catch((err) => {
      app.log.error({ err }, 'device login failed');
      socket.close(1011, 'error');
    });
  });
};
