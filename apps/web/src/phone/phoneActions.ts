import { type DialBody, ERRORS } from '@crm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { callSocket } from '../api/callSocket';
import { ApiError } from '../api/http';
import { ui } from '../api/ui-bridge';
import { readToken, registerSessionEndHook, useSession } from '../stores/session';
import { phoneApi } from './api';
import { createCallController } from './callController';
import type { Timers } from './callDeps';
import { showDialError } from './dialErrors';
import { createExtensionController } from './extensionController';
import { checkMicrophone } from './microphone';
import { useCall, useExtension } from './phoneStore';
import { softphone } from './softphone';
import { sounds } from './sounds';
import { emitTaskCallEvent } from './taskCallEvents';

/**
 * The phone of this page, wired to the browser: the call controller (dial, hang-up, answer,
 * socket frames), the extension controller (registration), the stores, the socket and the
 * session. Components call the functions exported here and read the stores.
 */

/** Set by PhoneDock: the lists a call changes, and the pools feature's discard dialog (SPEC §8 100011). */
const links: { queryClient: QueryClient | null; blacklistDiscard: ((cmCtid: number) => void) | null } = {
  queryClient: null,
  blacklistDiscard: null,
};
export const bindQueryClient = (client: QueryClient) => {
  links.queryClient = client;
};
export const bindBlacklistDiscard = (fn: ((cmCtid: number) => void) | null) => {
  links.blacklistDiscard = fn;
};

const merchantType = () => useSession.getState().userInfo?.merchantType ?? 1;
const timers: Timers = {
  set: (fn, ms) => window.setTimeout(fn, ms),
  clear: (id) => window.clearTimeout(id),
};

/** Lists that change when a call ends: call records, the seats workbench, the customer's timeline. */
const refreshAfterCall = ({ cmCtid }: { cmCtid: number }) => {
  const client = links.queryClient;
  if (!client) return;
  void client.invalidateQueries({ queryKey: ['calls'] });
  void client.invalidateQueries({ queryKey: ['seats'] });
  void client.invalidateQueries({ queryKey: ['follow-ups'] });
  if (cmCtid > 0) void client.invalidateQueries({ queryKey: ['customer', cmCtid] });
  void client.invalidateQueries({ queryKey: ['customers'] });
};

const calls = createCallController({
  api: {
    ...phoneApi,
    // the page is going away: a plain keepalive request that outlives it
    hangupOnLeave: (body) => {
      const token = readToken();
      void fetch('/api/frontend/call/hangup', {
        method: 'POST',
        keepalive: true,
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
        body: JSON.stringify(body),
      }).catch(() => undefined);
    },
  },
  softphone,
  sounds,
  ui,
  socket: callSocket,
  merchantType,
  timers,
  now: () => Date.now(),
  storage:
    typeof window !== 'undefined' ? window.sessionStorage : { getItem: () => null, setItem: () => {}, removeItem: () => {} },
  onCallOver: refreshAfterCall,
  onDialError: (err) => showDialError(err, ui, links.blacklistDiscard),
  isCallGone: (err) => err instanceof ApiError && err.code === ERRORS.CALL_NOT_FOUND.code,
  onTaskCall: emitTaskCallEvent,
});

const extension = createExtensionController({
  api: phoneApi,
  softphone,
  ui,
  merchantType,
  timers,
  checkMicrophone,
  onLoaded: (sip) => void calls.checkLeftCall(sip),
});

/** A dial: by customer and number id (cmCtid + cbTacid/ccId), or a typed number (dstNumber). */
export type DialTarget = DialBody;

export const { dial, hangup, answer, onCallButton } = calls;
export const { loadExtension, reloadExtension, changePhoneState } = extension;

/** Every call socket frame reaches here; the socket's login reloads an extension not yet read. */
export const handleCallFrame: Parameters<typeof callSocket.subscribe>[0] = (frame) => {
  if (calls.handleFrame(frame) && !useExtension.getState().isLoaded) void loadExtension();
};

/** Session end (logout, 100002, /login): socket closed, extension unregistered, state cleared (SPEC §2). */
export const endPhoneSession = () => {
  calls.reset();
  extension.reset();
  callSocket.disconnect();
  useExtension.getState().reset();
  useCall.getState().reset();
};

// Wired once for the page's life: frames reach the phone, and the session end clears it.
if (typeof window !== 'undefined') window.addEventListener('pagehide', calls.leavePage);
callSocket.subscribe(handleCallFrame);
registerSessionEndHook(endPhoneSession);
softphone.onConnectionLost?.(() => extension.onConnectionLost(calls.onConnectionLost()));
softphone.onLocalFailure?.(calls.onLocalFailure);
