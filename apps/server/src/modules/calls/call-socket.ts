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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { staffChannel } from '../../lib/pubsub';
import { authenticate } from '../auth/auth.service';
import { findStaffMember, unregisterOnLogout } from '../extensions/extensions.service';
import type { CallRuntime, StaffMessage } from './call-bus';
import { presenceBeat, presenceGone, presenceLogin } from './call-presence';
import { deviceDial, dial } from './calls-dial';
import { endCallsOfLostSocket, hangupActiveCallsOf } from './calls-lifecycle';
import { progressFor } from './calls-publish';

/** Close code of a socket refused for its address or closed for not logging in: the client may retry later. */
const CLOSE_POLICY = 1008;
/** A login frame's token longer than this is no token. */
const MAX_TOKEN_LENGTH = 256;

const frame = (code: number, msgType: number, msg: string, data: unknown = null): string =>
  JSON.stringify({ code, msg_type: msgType, msg, data } satisfies CallFrame);

type ClientFrame = { type: string } & Record<string, unknown>;

/** A client frame is a JSON object with a string `type`; anything else (null, arrays, text) is refused. */
const parseClientFrame = (data: unknown): ClientFrame | undefined => {
  let msg: unknown;
  try {
    msg = JSON.parse(String(data));
  } catch {
    return undefined;
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return undefined;
  const type = (msg as Record<string, unknown>).type;
  return typeof type === 'string' ? (msg as ClientFrame) : undefined;
};

/**
 * The call socket /ws/call (SPEC §4/§7, DESIGN §5): the server asks for login (msg_type 0),
 * the client answers {type:'login', token}; then heartbeats, dials, and the staff's call
 * events (msg_type 4/5, errors 3). A second login of the same staff replaces the first
 * socket: it hears 请勿多端登录, its calls are hung up and it is closed (code 4001).
 *
 * Lifecycle (issue 11): a socket must log in within `loginWaitMs` and an address holds at most
 * `maxUnauthenticatedPerAddress` sockets not yet logged in. A revoked session (logout, password
 * change, account disabled, on any instance) closes its socket at once (100002, code 4002), and
 * every command checks the session again. A socket lost otherwise (page reloaded or closed,
 * network) ends its staff's calls in progress on every line, as the sip line's page-leave does;
 * unless a socket of the staff logs in again within `lostGraceMs`, his extension goes offline.
 *
 * Presence (issue 22, call-presence.ts): a logged-in socket has a call_presence row, seen again at
 * each heartbeat and deleted at its close; dialers count only agents working from a live socket.
 */
export const registerCallSocket = (app: FastifyInstance, rt: CallRuntime) => {
  const limits = rt.config.callSocket;
  /** sockets of this instance not yet logged in, per client address */
  const unauthenticated = new Map<string, number>();
  /** lost sockets waiting out the grace period, stopped when the server closes */
  const graceTimers = new Set<NodeJS.Timeout>();
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
    for (const timer of graceTimers) clearTimeout(timer);
    graceTimers.clear();
  });

  app.get('/ws/call', { websocket: true, schema: { hide: true } }, (socket: WebSocket, req: FastifyRequest) => {
    const address = req.ip;
    const held = unauthenticated.get(address) ?? 0;
    if (held >= limits.maxUnauthenticatedPerAddress) {
      socket.close(CLOSE_POLICY, 'too many sockets');
      return;
    }
    unauthenticated.set(address, held + 1);
    let isCounted = true;
    const uncount = () => {
      if (!isCounted) return;
      isCounted = false;
      const n = (unauthenticated.get(address) ?? 1) - 1;
      if (n > 0) unauthenticated.set(address, n);
      else unauthenticated.delete(address);
    };

    const connId = randomUUID();
    let actor: Actor | undefined;
    /** the token the socket logged in with: every command checks its session again */
    let token = '';
    /** the company of the socket's presence row (call-presence.ts), once logged in */
    let presenceTenant = 0;
    /** replaced by a newer socket of the staff or refused: its close is no lost socket */
    let isDismissed = false;
    /** after the close: the staff whose socket was lost, while the grace period runs */
    let lost: Actor | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let framesInOrder: Promise<void> = Promise.resolve();
    let unsubscribe: (() => void) | undefined;
    const send = (text: string) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    const loginTimer = setTimeout(() => {
      if (!actor) closeWith(CLOSE_POLICY, 'login timeout');
    }, limits.loginWaitMs);
    loginTimer.unref();

    /**
     * Closes the socket and runs its end at once: the peer's close frame may come late or never,
     * and the socket's place and its staff's calls must not wait for it.
     */
    const closeWith = (code: number, reason: string) => {
      onClosed();
      socket.close(code, reason);
    };

    /** The session is gone: 100002, then the socket closes (4002); the close ends its calls. */
    const expire = () => {
      send(frame(ERRORS.LOGIN_EXPIRED.code, CALL_MSG_TYPE.error, ERRORS.LOGIN_EXPIRED.msg));
      closeWith(CALL_SOCKET_CLOSE_UNAUTHORISED, 'unauthorised');
    };

    const onStaffMessage = (raw: unknown) => {
      const m = raw as StaffMessage;
      if (lost) {
        // a socket of the staff logged in again (reload, another tab): the extension stays online
        if (m.kind === 'login' && m.connId !== connId) stopGrace();
        return;
      }
      if (m.kind === 'revoked') {
        if (actor && m.sessionIds.includes(actor.sessionId)) expire();
        return;
      }
      if (m.kind === 'login') {
        if (m.connId === connId || !actor) return;
        isDismissed = true;
        const staffId = actor.staffId;
        send(frame(ERRORS.MULTI_LOGIN.code, CALL_MSG_TYPE.error, ERRORS.MULTI_LOGIN.msg));
        unsubscribe?.();
        unsubscribe = undefined;
        actor = undefined;
        void hangupActiveCallsOf(rt, staffId, HANGUP_CAUSE.multiLogin)
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
        .then(async () => send(frame(0, m.msgType, m.msg, await progressFor(rt, viewer, m.progress))))
        .catch((err: unknown) => app.log.error({ err }, 'call progress frame failed'));
    };

    const stopGrace = () => {
      if (graceTimer) {
        clearTimeout(graceTimer);
        graceTimers.delete(graceTimer);
      }
      graceTimer = undefined;
      lost = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
    };

    const login = async (given: string) => {
      const who = given ? await authenticate(rt.db, given) : undefined;
      if (!who) {
        isDismissed = true;
        expire();
        return;
      }
      unsubscribe?.();
      actor = who;
      token = given;
      uncount();
      unsubscribe = await rt.bus.subscribe(staffChannel(who.staffId), onStaffMessage);
      if (socket.readyState !== socket.OPEN) return unsubscribe();
      presenceTenant = who.tenantId;
      await presenceLogin(rt.db, { connId, tenantId: who.tenantId, staffId: who.staffId, instanceId: rt.instanceId });
      // closed while the row was written: its close may have run before the row existed
      if (isEnded) return presenceGone(rt.db, presenceTenant, connId);
      await rt.bus.publish(staffChannel(who.staffId), { kind: 'login', connId } satisfies StaffMessage);
      send(frame(0, CALL_MSG_TYPE.loginOk, '登录成功', { cmSid: who.staffId }));
    };

    /** Every command checks the session again: a revoked or expired one ends the socket. */
    const currentActor = async (isActivity: boolean): Promise<Actor | undefined> => {
      const who = token ? await authenticate(rt.db, token, { isActivity }) : undefined;
      if (who && who.sessionId === actor?.sessionId) return who;
      if (actor) expire();
      return undefined;
    };

    const dialOver = async (who: Actor, body: unknown) => {
      const parsed = dialBody.safeParse(body);
      if (!parsed.success) {
        send(frame(ERRORS.DIAL_NUMBER_INVALID.code, CALL_MSG_TYPE.error, ERRORS.DIAL_NUMBER_INVALID.msg));
        return;
      }
      const member = await findStaffMember(rt.db, who.tenantId, who.staffId);
      // the created frame (msg_type 4) is published by the dial itself
      if (member?.merchantType === 2) await deviceDial(rt, who, parsed.data);
      else await dial(rt, who, parsed.data);
    };

    socket.on('message', (data) => {
      const msg = parseClientFrame(data);
      if (!msg) {
        send(frame(ERRORS.VALIDATION.code, CALL_MSG_TYPE.error, ERRORS.VALIDATION.msg));
        return;
      }
      const run = async () => {
        if (msg.type === 'login') {
          const given = typeof msg.token === 'string' && msg.token.length <= MAX_TOKEN_LENGTH ? msg.token : '';
          return login(given);
        }
        if (msg.type === 'heartbeat') {
          if (actor && !(await currentActor(false))) return;
          if (actor) presenceBeat(rt.db, actor.tenantId, connId);
          return send(frame(0, CALL_MSG_TYPE.pong, 'pong'));
        }
        if (!actor) return send(frame(0, CALL_MSG_TYPE.askLogin, '请登录'));
        if (msg.type === 'dial') {
          const who = await currentActor(true);
          if (who) return dialOver(who, msg);
        }
      };
      run().catch((err: unknown) => {
        if (err instanceof AppError) send(frame(err.code, CALL_MSG_TYPE.error, err.message, err.data ?? null));
        else {
          app.log.error({ err }, 'call socket message failed');
          send(frame(ERRORS.INTERNAL.code, CALL_MSG_TYPE.error, ERRORS.INTERNAL.msg));
        }
      });
    });
    let isEnded = false;
    const onClosed = () => {
      if (isEnded) return;
      isEnded = true;
      clearTimeout(loginTimer);
      uncount();
      // the socket is no longer there for any dialer (replaced, refused or lost; a closing server
      // removes all of its rows before it closes, calls.plugin.ts)
      if (!isClosing && presenceTenant)
        void presenceGone(rt.db, presenceTenant, connId).catch((err) => app.log.error({ err }, 'call presence removal failed'));
      const who = actor;
      actor = undefined;
      if (!who || isDismissed || isClosing) {
        unsubscribe?.();
        unsubscribe = undefined;
        return;
      }
      // A lost socket: its calls end now (nobody could end them later); the extension goes offline
      // after the grace period unless a socket of the staff logs in again (the subscription stays for that).
      lost = who;
      void endCallsOfLostSocket(rt, who.staffId).catch((err) =>
        app.log.error({ err }, 'hang-up after a lost call socket failed'),
      );
      graceTimer = setTimeout(() => {
        if (!lost) return;
        const { tenantId, staffId } = lost;
        stopGrace();
        void unregisterOnLogout(rt.db, tenantId, staffId).catch((err) =>
          app.log.error({ err }, 'extension offline after a lost call socket failed'),
        );
      }, limits.lostGraceMs);
      graceTimer.unref();
      graceTimers.add(graceTimer);
    };
    socket.on('close', onClosed);
    send(frame(0, CALL_MSG_TYPE.askLogin, '请登录'));
  });
};
