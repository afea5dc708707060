import { randomUUID } from 'node:crypto';
import {
  CALL_MSG_TYPE,
  CALL_SOCKET_CLOSE_REPLACED,
  CALL_SOCKET_CLOSE_UNAUTHORISED,
  type CallFrame,
  dialBody,
  ERRORS,
  HANGUP_CAUSE,
} from '@crm/contracts';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { staffChannel } from '../../lib/pubsub';
import { authenticate } from '../auth/auth.service';
import { findStaffMember } from '../extensions/extensions.service';
import type { CallRuntime, StaffMessage } from './call-bus';
import * as service from './calls.service';

/** A socket that has not logged in by then is closed. */
const LOGIN_WAIT_MS = 60_000;

const frame = (code: number, msgType: number, msg: string, data: unknown = null): string =>
  JSON.stringify({ code, msg_type: msgType, msg, data } satisfies CallFrame);

/**
 * The call socket /ws/call (SPEC §4/§7, DESIGN §5): the server asks for login (msg_type 0),
 * the client answers {type:'login', token}; then heartbeats, dials, and the staff's call
 * events (msg_type 4/5, errors 3). A second login of the same staff replaces the first
 * socket: it hears 请勿多端登录, its calls are hung up and it is closed (code 4001).
 */
export const registerCallSocket = (app: FastifyInstance, rt: CallRuntime) => {
  app.get('/ws/call', { websocket: true, schema: { hide: true } }, (socket: WebSocket) => {
    const connId = randomUUID();
    let actor: Actor | undefined;
    let framesInOrder: Promise<void> = Promise.resolve();
    let unsubscribe: (() => void) | undefined;
    const send = (text: string) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    const loginTimer = setTimeout(() => {
      if (!actor) socket.close(CALL_SOCKET_CLOSE_UNAUTHORISED, 'login timeout');
    }, LOGIN_WAIT_MS);
    loginTimer.unref();

    const onStaffMessage = (raw: unknown) => {
      const m = raw as StaffMessage;
      if (m.kind === 'login') {
        if (m.connId === connId || !actor) return;
        const staffId = actor.staffId;
        send(frame(ERRORS.MULTI_LOGIN.code, CALL_MSG_TYPE.error, ERRORS.MULTI_LOGIN.msg));
        unsubscribe?.();
        unsubscribe = undefined;
        actor = undefined;
        void service
          .hangupActiveCallsOf(rt, staffId, HANGUP_CAUSE.multiLogin)
          .catch((err) => app.log.error({ err }, 'hang-up after second login failed'))
          .finally(() => socket.close(CALL_SOCKET_CLOSE_REPLACED, 'replaced'));
        return;
      }
      if (m.kind === 'frame') {
        send(JSON.stringify(m.frame));
        return;
      }
      // Masking is decided per frame by the customer-access policy, as the call's customer is now;
      // frames are sent one after the other so the lookup cannot reorder them.
      const viewer = actor;
      if (!viewer) return;
      framesInOrder = framesInOrder
        .then(async () => send(frame(0, m.msgType, m.msg, await service.progressFor(rt, viewer, m.progress))))
        .catch((err: unknown) => app.log.error({ err }, 'call progress frame failed'));
    };

    const login = async (token: string) => {
      const who = token ? await authenticate(rt.db, token) : undefined;
      if (!who) {
        send(frame(ERRORS.LOGIN_EXPIRED.code, CALL_MSG_TYPE.error, ERRORS.LOGIN_EXPIRED.msg));
        socket.close(CALL_SOCKET_CLOSE_UNAUTHORISED, 'unauthorised');
        return;
      }
      unsubscribe?.();
      actor = who;
      unsubscribe = await rt.bus.subscribe(staffChannel(who.staffId), onStaffMessage);
      if (socket.readyState !== socket.OPEN) return unsubscribe();
      await rt.bus.publish(staffChannel(who.staffId), { kind: 'login', connId } satisfies StaffMessage);
      send(frame(0, CALL_MSG_TYPE.loginOk, '登录成功', { cmSid: who.staffId }));
    };

    const dialOver = async (who: Actor, body: unknown) => {
      const parsed = dialBody.safeParse(body);
      if (!parsed.success) {
        send(frame(ERRORS.DIAL_NUMBER_INVALID.code, CALL_MSG_TYPE.error, ERRORS.DIAL_NUMBER_INVALID.msg));
        return;
      }
      const member = await findStaffMember(rt.db, who.tenantId, who.staffId);
      // the created frame (msg_type 4) is published by the dial itself
      if (member?.merchantType === 2) await service.deviceDial(rt, who, parsed.data);
      else await service.dial(rt, who, parsed.data);
    };

    socket.on('message', (data) => {
      let msg: { type?: unknown; token?: unknown };
      try {
        msg = JSON.parse(String(data)) as typeof msg;
      } catch {
        return;
      }
      const run = async () => {
        if (msg.type === 'login') return login(typeof msg.token === 'string' ? msg.token : '');
        if (msg.type === 'heartbeat') return send(frame(0, CALL_MSG_TYPE.pong, 'pong'));
        if (!actor) return send(frame(0, CALL_MSG_TYPE.askLogin, '请登录'));
        if (msg.type === 'dial') return dialOver(actor, msg);
      };
      run().catch((err: unknown) => {
        if (err instanceof AppError) send(frame(err.code, CALL_MSG_TYPE.error, err.message, err.data ?? null));
        else {
          app.log.error({ err }, 'call socket message failed');
          send(frame(ERRORS.INTERNAL.code, CALL_MSG_TYPE.error, ERRORS.INTERNAL.msg));
        }
      });
    });
    socket.on('close', () => {
      clearTimeout(loginTimer);
      unsubscribe?.();
    });
    send(frame(0, CALL_MSG_TYPE.askLogin, '请登录'));
  });
};
