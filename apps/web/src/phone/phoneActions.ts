import {
  CALL_LIMITS,
  CALL_MSG_TYPE,
  CALL_STATUS,
  CALL_TYPE,
  type CallFrame,
  type CallProgress,
  type DialBody,
  ERRORS,
  HANGUP_CAUSE,
  PHONE_STATE,
  REGISTER_STATUS,
} from '@crm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { callSocket } from '../api/callSocket';
import { ApiError } from '../api/http';
import { ui } from '../api/ui-bridge';
import { readToken, registerSessionEndHook, useSession } from '../stores/session';
import { phoneApi } from './api';
import { progressStep } from './callProgress';
import { extensionRefusal, hangupRefusal, numberRefusal } from './dialRules';
import { checkMicrophone } from './microphone';
import { type ActiveCall, useCall, useExtension } from './phoneStore';
import { ConnectionLostError, type LocalFailure, softphone } from './softphone';
import { sounds } from './sounds';

/**
 * The phone's behaviour outside React: extension (un)registration, dialing, hang-up, answer and
 * the call socket's progress frames (SPEC §4, §5, §8). Components call these and read the stores.
 */

let queryClient: QueryClient | null = null;
/** Lists that change when a call ends: call records, the seats workbench, the customer's timeline. */
export const bindQueryClient = (client: QueryClient) => {
  queryClient = client;
};
/** Opens the discard-to-pool dialog for a blacklisted customer (set by the pools feature when present). */
let blacklistDiscard: ((cmCtid: number) => void) | null = null;
export const bindBlacklistDiscard = (fn: ((cmCtid: number) => void) | null) => {
  blacklistDiscard = fn;
};

const merchantType = () => useSession.getState().userInfo?.merchantType ?? 1;
const dialContext = () => {
  const ext = useExtension.getState();
  return {
    callStatus: useCall.getState().callStatus,
    merchantType: merchantType(),
    sip: ext.sip,
    registerStatus: ext.registerStatus,
  };
};

// ---------- extension ----------

let reinitTimer: number | undefined;
const clearReinit = () => {
  window.clearTimeout(reinitTimer);
  reinitTimer = undefined;
};

const register = async () => {
  const ext = useExtension.getState();
  if (!ext.sip) return;
  clearReinit();
  ext.registerEvent('register');
  try {
    await softphone.register(ext.sip);
    useExtension.getState().registerEvent('registered');
  } catch (err) {
    useExtension.getState().registerEvent('failed');
    if (err instanceof ConnectionLostError) scheduleReinit();
  }
};

/**
 * SPEC §4: on a connection error the status becomes failed, timers clear and the softphone
 * re-initialises, debounced 5 s, for as long as the agent wants to be online.
 */
const scheduleReinit = () => {
  clearReinit();
  reinitTimer = window.setTimeout(() => {
    reinitTimer = undefined;
    const ext = useExtension.getState();
    const wantsOnline = ext.sip !== null && ext.phoneState !== PHONE_STATE.offline && merchantType() === 1;
    if (wantsOnline && ext.registerStatus === REGISTER_STATUS.failed) void register();
  }, CALL_LIMITS.reinitDebounceMs);
};

/** The sip phone lost its connection: a call it carried is over, the server is told; then re-initialise. */
const onConnectionLost = () => {
  useExtension.getState().registerEvent('failed');
  const { call } = useCall.getState();
  if (call && !call.isDevice) {
    ui.message?.error('与呼叫服务器的连接中断，通话已结束');
    void hangup({ isForced: true });
  } else {
    ui.message?.warning('与呼叫服务器的连接中断，5 秒后自动重新注册');
  }
  scheduleReinit();
};

let loading: Promise<void> | null = null;

/**
 * Reads the default extension; a normal account left online re-registers (SPEC §4 re-initialise).
 * One read at a time; a failed read is retried when the call socket logs in again.
 */
export const loadExtension = () => {
  loading ??= readExtension().finally(() => {
    loading = null;
  });
  return loading;
};

const readExtension = async () => {
  let sip: Awaited<ReturnType<typeof phoneApi.sipDefault>>;
  try {
    sip = await phoneApi.sipDefault();
  } catch {
    return;
  }
  const ext = useExtension.getState();
  ext.setSip(sip);
  ext.setPhoneState(sip?.phoneState ?? 0);
  if (
    sip &&
    merchantType() === 1 &&
    sip.phoneState !== PHONE_STATE.offline &&
    ext.registerStatus === REGISTER_STATUS.unregistered
  )
    await register();
};

/** After the default extension changed (/call/mysip): the old one is let go and the new one loaded. */
export const reloadExtension = async () => {
  if (useCall.getState().callStatus > CALL_STATUS.ready) return;
  if (useExtension.getState().registerStatus !== REGISTER_STATUS.unregistered) {
    useExtension.getState().registerEvent('unregister');
    await softphone.unregister({ isSilent: true }).catch(() => undefined);
  }
  await loadExtension();
};

/**
 * SPEC §4 header dropdown: online/busy first checks the microphone, then saves the phone state
 * on the server and registers; offline saves and unregisters.
 */
export const changePhoneState = async (target: 0 | 1 | 2) => {
  const ext = useExtension.getState();
  if (!ext.sip) {
    ui.message?.warning('暂无默认分机');
    return;
  }
  if (target !== PHONE_STATE.offline) {
    const micError = await checkMicrophone();
    if (micError) {
      ui.message?.error(micError);
      return;
    }
  } else if (useCall.getState().callStatus > CALL_STATUS.ready) {
    ui.message?.warning('通话中，请挂断后再切换为离线');
    return;
  }
  try {
    await phoneApi.savePhoneState(target);
  } catch {
    return; // the http client has shown the message
  }
  useExtension.getState().setPhoneState(target);
  if (target === PHONE_STATE.offline) {
    clearReinit();
    useExtension.getState().registerEvent('unregister');
    await softphone.unregister().catch(() => undefined);
    return;
  }
  if (useExtension.getState().registerStatus !== REGISTER_STATUS.registered) await register();
};

// ---------- calls ----------

let setupTimer: number | undefined;
/** uuids already ended here: their late frames are ignored */
const endedUuids = new Set<string>();
/** frames that arrived before the dial's HTTP answer named the call */
let pending: CallProgress[] = [];
let isDialling = false;

const clearSetupTimer = () => {
  window.clearTimeout(setupTimer);
  setupTimer = undefined;
};

const refreshAfterCall = (cmCtid: number) => {
  if (!queryClient) return;
  void queryClient.invalidateQueries({ queryKey: ['calls'] });
  void queryClient.invalidateQueries({ queryKey: ['seats'] });
  void queryClient.invalidateQueries({ queryKey: ['follow-ups'] });
  if (cmCtid > 0) void queryClient.invalidateQueries({ queryKey: ['customer', cmCtid] });
  void queryClient.invalidateQueries({ queryKey: ['customers'] });
};

/** Ends the call on screen: timers, ring, end tone, back to status 1 (SPEC §4). */
const endCall = (call: ActiveCall, options: { error?: string; notice?: string } = {}) => {
  clearSetupTimer();
  // sip line: the local SIP session ends with the record (nothing to do when it already has)
  softphone.hangup?.();
  sounds.stopRing();
  sounds.ended();
  endedUuids.add(call.uuid);
  const isMissed = call.callType === CALL_TYPE.inbound && call.answeredAt === null;
  useCall.getState().ended(isMissed);
  if (options.error) ui.message?.error(options.error);
  else if (options.notice) ui.message?.info(options.notice);
  refreshAfterCall(call.cmCtid);
};

const startCall = (call: ActiveCall) => {
  endedUuids.delete(call.uuid);
  useCall.getState().started(call);
  if (call.callType === CALL_TYPE.outbound) {
    clearSetupTimer();
    // SPEC §9: unanswered after 60 s → 呼叫超时! then hang up
    setupTimer = window.setTimeout(() => {
      const current = useCall.getState();
      if (current.call?.uuid !== call.uuid || current.callStatus !== CALL_STATUS.dialling) return;
      ui.message?.error('呼叫超时!');
      void hangup({ isForced: true });
    }, CALL_LIMITS.setupTimeoutSeconds * 1000);
  }
  const early = pending.filter((p) => p.uuid === call.uuid);
  pending = [];
  for (const p of early) applyProgress(p);
};

const applyProgress = (p: CallProgress) => {
  if (endedUuids.has(p.uuid)) return;
  const { call } = useCall.getState();
  if (!call && p.event === 'ended' && takeLeftCall(p.uuid)) {
    ui.message?.info(`离开页面时的通话已由系统挂断${p.billsec > 0 ? `，通话时长 ${p.billsec} 秒` : ''}`);
    refreshAfterCall(p.cmCtid);
    return;
  }
  if (!call || call.uuid !== p.uuid) return;
  const step = progressStep(p, call.isDevice);
  if (step.kind === 'answered' && useCall.getState().callStatus !== CALL_STATUS.talking) {
    clearSetupTimer();
    sounds.stopRing();
    sounds.answered();
    useCall.getState().answered();
  } else if (step.kind === 'ended') {
    const wasAnswered = useCall.getState().call?.answeredAt !== null;
    endCall(useCall.getState().call ?? call, {
      error: step.error,
      // a timeout was already announced by the server's 呼叫超时! frame
      notice:
        !wasAnswered && call.callType === CALL_TYPE.outbound && p.hangupCauseName && p.hangupCause !== HANGUP_CAUSE.timeout
          ? `未接通：${p.hangupCauseName}`
          : undefined,
    });
  }
};

const onIncoming = (p: CallProgress) => {
  if (endedUuids.has(p.uuid)) return;
  const { call } = useCall.getState();
  if (!call && p.event !== 'ended' && p.event !== 'answered') {
    startCall({
      uuid: p.uuid,
      yearMonth: p.yearMonth,
      callType: CALL_TYPE.inbound,
      phone: p.phone,
      name: p.name,
      cmCtid: p.cmCtid,
      isDevice: false,
      startedAt: Date.now(),
      answeredAt: null,
    });
    sounds.startRing();
    ui.message?.info({ content: `来电提醒：${p.phone}，请及时跟进`, duration: 6 });
    return;
  }
  applyProgress(p);
};

/** Every call socket frame reaches here (subscribed by PhoneDock). */
export const handleCallFrame = (frame: CallFrame) => {
  if (frame.msg_type === CALL_MSG_TYPE.loginOk) {
    if (!useExtension.getState().isLoaded) void loadExtension();
  } else if (frame.msg_type === CALL_MSG_TYPE.dialProgress) {
    const p = frame.data as CallProgress;
    const { call } = useCall.getState();
    if (!call && isDialling) pending.push(p);
    else applyProgress(p);
  } else if (frame.msg_type === CALL_MSG_TYPE.incoming) {
    onIncoming(frame.data as CallProgress);
  } else if (frame.msg_type === CALL_MSG_TYPE.error && frame.msg === ERRORS.MULTI_LOGIN.msg) {
    // SPEC §8: another session picked up: this page hangs up its call (the server ended it)
    const { call } = useCall.getState();
    if (call) endCall(call);
  }
};

/** A dial: by customer and number id (cmCtid + cbTacid/ccId), or a typed number (dstNumber). */
export type DialTarget = DialBody;

/** SPEC §5 dial: checks, then the server call; refusals shown as SPEC §8 says. */
export const dial = async (target: DialTarget): Promise<boolean> => {
  const refusal = extensionRefusal(dialContext());
  if (refusal) {
    ui.message?.warning(refusal);
    return false;
  }
  const hasCustomerNumber = target.cmCtid !== undefined && (target.cbTacid !== undefined || target.ccId !== undefined);
  if (!hasCustomerNumber) {
    const numberError = numberRefusal(target.dstNumber ?? '', target.cmStid);
    if (numberError) {
      ui.message?.warning(numberError);
      return false;
    }
  }
  if (!callSocket.isOpen) callSocket.connect();
  const isDevice = merchantType() === 2;
  const body = target;
  isDialling = true;
  pending = [];
  try {
    let call: ActiveCall;
    if (isDevice) {
      const r = await phoneApi.deviceDial(body);
      call = {
        uuid: r.uuid || r.id,
        yearMonth: r.yearMonth,
        callType: CALL_TYPE.outbound,
        phone: r.dstNumber,
        name: r.name,
        cmCtid: r.cmCtid,
        isDevice,
        startedAt: Date.now(),
        answeredAt: null,
      };
    } else {
      const r = await phoneApi.dial(body);
      call = {
        uuid: r.uuid,
        yearMonth: r.yearMonth,
        callType: r.callType || CALL_TYPE.outbound,
        phone: r.phone,
        name: r.name,
        cmCtid: r.cmCtid,
        isDevice,
        startedAt: Date.now(),
        answeredAt: null,
      };
    }
    startCall(call);
    // sip line: the browser places the call to the opaque uuid; Kamailio asks the server for the number
    if (!isDevice) {
      softphone.call?.(call.uuid).catch((err: unknown) => {
        ui.message?.error(err instanceof Error ? err.message : '呼叫失败');
      });
    }
    return true;
  } catch (err) {
    pending = [];
    showDialError(err);
    return false;
  } finally {
    isDialling = false;
  }
};

const showDialError = (err: unknown) => {
  if (!(err instanceof ApiError)) {
    // not the server's answer (a bug or the browser): never a silent failure
    console.error('dial failed', err);
    ui.message?.error('呼叫失败，请重试');
    return;
  }
  if (err.code === ERRORS.DIAL_LOCKED.code) {
    ui.modal?.warning({ title: '提示', content: err.message, okText: '知道了' });
    return;
  }
  if (err.code === ERRORS.BLACKLISTED.code) {
    // SPEC §8: 100011 carries the customer id; outside a task the agent decides about the pool
    const cmCtid = Number((err.data as { cmCtid?: number } | null)?.cmCtid) || 0;
    if (cmCtid > 0 && blacklistDiscard) {
      const discard = blacklistDiscard;
      ui.modal?.confirm({
        title: err.message,
        content: '黑名单数据是否丢弃到公海?',
        okText: '丢弃到公海',
        cancelText: '取消',
        onOk: () => discard(cmCtid),
      });
    } else ui.message?.error(err.message);
    return;
  }
  // SPEC §8: other non-zero codes reset the request and show the message (network errors too)
  ui.message?.error(err.message);
};

/** SPEC §5 hang-up: refused in the first 2 s; device calls end on the phone when no device is bound. */
export const hangup = async ({ isForced = false } = {}) => {
  const { call } = useCall.getState();
  if (!call) return;
  if (!isForced) {
    const refusal = hangupRefusal(call.startedAt, Date.now());
    // the server applies the same rule to incoming calls, counted from the first ring
    if (refusal) {
      ui.message?.warning(refusal);
      return;
    }
  }
  const body = { uuid: call.uuid, yearMonth: call.yearMonth };
  if (call.isDevice && !useExtension.getState().sip?.cmDeid) {
    ui.message?.warning('请前往手机进行挂断');
    return;
  }
  // sip line: BYE / CANCEL first; the server closes the record when Kamailio reports it
  if (!call.isDevice) softphone.hangup?.();
  try {
    await (call.isDevice ? phoneApi.deviceHangup(body) : phoneApi.hangup(body));
  } catch (err) {
    // a call the server already closed is over here too
    if (err instanceof ApiError && err.code === ERRORS.CALL_NOT_FOUND.code) endCall(call);
    return;
  }
  // the 'ended' frame follows; close the screen now so a slow socket never keeps the agent waiting
  if (useCall.getState().call?.uuid === call.uuid) endCall(call);
};

/** SPEC §4: accepting an incoming call → status 3, the ring stops. */
export const answer = async () => {
  const { call } = useCall.getState();
  if (!call || call.callType !== CALL_TYPE.inbound) return;
  sounds.stopRing();
  // sip line: the browser answers the SIP call; the 'answered' frame follows from Kamailio's report
  if (await softphone.answer?.()) return;
  try {
    await phoneApi.answer({ uuid: call.uuid, yearMonth: call.yearMonth });
  } catch {
    return;
  }
  if (useCall.getState().call?.uuid === call.uuid && useCall.getState().callStatus !== CALL_STATUS.talking) {
    clearSetupTimer();
    sounds.answered();
    useCall.getState().answered();
  }
};

/** The floating call button (SPEC §4): at status 0 it opens the dialler, otherwise re-shows the open modal. */
export const onCallButton = () => {
  const state = useCall.getState();
  if (state.callStatus > CALL_STATUS.ready) {
    state.setInCallOpen(true);
    return;
  }
  if (state.callStatus === CALL_STATUS.none) {
    const refusal = extensionRefusal(dialContext(), true);
    if (refusal) {
      ui.message?.warning(refusal);
      return;
    }
  }
  state.openDialler();
};

/** Session end (logout, 100002, /login): socket closed, extension unregistered, state cleared (SPEC §2). */
export const endPhoneSession = () => {
  clearSetupTimer();
  clearReinit();
  sounds.stopRing();
  callSocket.disconnect();
  const wasRegistered = useExtension.getState().registerStatus !== REGISTER_STATUS.unregistered;
  if (wasRegistered) void softphone.unregister({ isSilent: true }).catch(() => undefined);
  useExtension.getState().reset();
  useCall.getState().reset();
  endedUuids.clear();
  pending = [];
};

/**
 * sip line: the browser could not place the call (microphone, connection, WebRTC): the agent is
 * told and the record is closed on the server as soon as the SPEC §5 hang-up minimum allows.
 */
const onLocalFailure = (reason: LocalFailure) => {
  const { call } = useCall.getState();
  if (!call || call.isDevice || call.callType !== CALL_TYPE.outbound) return;
  ui.message?.error(reason === 'microphone' ? '无法打开麦克风，呼叫失败' : '呼叫失败，请检查网络后重试');
  const waitMs = Math.max(0, CALL_LIMITS.hangupMinSeconds * 1000 - (Date.now() - call.startedAt) + 200);
  window.setTimeout(() => {
    if (useCall.getState().call?.uuid === call.uuid) void hangup({ isForced: true });
  }, waitMs);
};

/** The call this tab hung up when the page was left, for the next page's notice (a minute at most). */
const LEFT_CALL_KEY = 'crm.leftCall';
const LEFT_CALL_NOTICE_MS = 60_000;
const takeLeftCall = (uuid: string): boolean => {
  try {
    const left = JSON.parse(sessionStorage.getItem(LEFT_CALL_KEY) ?? 'null') as { uuid?: string; at?: number } | null;
    if (left?.uuid !== uuid || Date.now() - (left.at ?? 0) > LEFT_CALL_NOTICE_MS) return false;
    sessionStorage.removeItem(LEFT_CALL_KEY);
    return true;
  } catch {
    return false;
  }
};

/**
 * sip line: a page left during a call (reload, close) hangs it up on the server, so the record
 * is not left open; the server ends it and the socket says so.
 */
const hangupOnLeave = () => {
  const { call } = useCall.getState();
  if (!call || call.isDevice || useExtension.getState().sip?.telephony !== 'sip') return;
  try {
    sessionStorage.setItem(LEFT_CALL_KEY, JSON.stringify({ uuid: call.uuid, at: Date.now() }));
  } catch {
    // storage unavailable: the next page only misses the notice
  }
  const token = readToken();
  void fetch('/api/frontend/call/hangup', {
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify({ uuid: call.uuid, yearMonth: call.yearMonth }),
  }).catch(() => undefined);
};

// Wired once for the page's life: frames reach the phone, and the session end clears it.
if (typeof window !== 'undefined') window.addEventListener('pagehide', hangupOnLeave);
callSocket.subscribe(handleCallFrame);
registerSessionEndHook(endPhoneSession);
softphone.onConnectionLost?.(onConnectionLost);
softphone.onLocalFailure?.(onLocalFailure);
