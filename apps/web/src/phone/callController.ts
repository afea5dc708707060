import {
  CALL_LIMITS,
  CALL_STATUS,
  CALL_TYPE,
  type CallFrame,
  type CallProgress,
  type DialBody,
  type DialResponse,
  type DirectDialResponse,
  HANGUP_CAUSE,
  type HangupBody,
  type SipDefault,
} from '@crm/contracts';
import { createFrameLedger, frameAction } from './callFrames';
import { progressStep } from './callProgress';
import { extensionRefusal, hangupRefusal, numberRefusal } from './dialRules';
import { type LeftCallStorage, leftCallNotice, pendingLeftCall, rememberLeftCall, takeLeftCall } from './leftCall';
import { type ActiveCall, useCall, useExtension } from './phoneStore';
import type { LocalFailure, Softphone } from './softphoneTypes';
import { END_CALL_EVENT_DELAY_MS, type TaskCallEvent } from './taskCallEvents';

/** What the phone shows through antd (the app's message and modal; null before <App> mounted). */
export type PhoneUi = {
  message: {
    info: (content: string | { content: string; duration?: number }) => unknown;
    warning: (content: string) => unknown;
    error: (content: string) => unknown;
  } | null;
  modal: { warning: (config: { title: string; content: string; okText: string }) => unknown } | null;
};

export type Timers = { set: (fn: () => void, ms: number) => number; clear: (id: number | undefined) => void };

/** Everything a call controller talks to; the browser's in phoneActions.ts, fakes in the tests. */
export type CallDeps = {
  api: {
    dial: (body: DialBody) => Promise<DialResponse>;
    deviceDial: (body: DialBody) => Promise<DirectDialResponse>;
    hangup: (body: HangupBody) => Promise<unknown>;
    deviceHangup: (body: HangupBody) => Promise<unknown>;
    answer: (body: HangupBody) => Promise<unknown>;
    sipDefault: () => Promise<SipDefault>;
    /** the hang-up of a page being left: must outlive the page (keepalive) */
    hangupOnLeave: (body: HangupBody) => void;
  };
  softphone: Pick<Softphone, 'call' | 'answer' | 'hangup'>;
  sounds: { startRing: () => void; stopRing: () => void; answered: () => void; ended: () => void; putThrough: () => void };
  ui: PhoneUi;
  socket: { readonly isOpen: boolean; connect: () => void };
  merchantType: () => number;
  timers: Timers;
  now: () => number;
  /** the tab's session storage (the call left with the page) */
  storage: LeftCallStorage;
  /** a call ended here: lists that show calls refresh */
  onCallOver: (call: { cmCtid: number; isMissed: boolean }) => void;
  /** a dial the server refused: the message, or the SPEC §8 dialog */
  onDialError: (err: unknown) => void;
  /** is this the server's "no such call" answer (an already closed call)? */
  isCallGone: (err: unknown) => boolean;
  /** a seat-task call started or ended here (SPEC §4: endCall 1 s after the end) */
  onTaskCall?: (event: TaskCallEvent) => void;
};

/** How often the next page asks whether the call it left is over yet (for its notice). */
export const LEFT_CALL_POLL_MS = 2_000;

/**
 * The calls of one page (SPEC §4, §5, §8): dialing, hang-up, answer and the call socket's
 * progress frames, moving the call store through 0 → 1 → 2 → 3 → 1. All its state lives here
 * and in the stores; nothing at module level.
 */
export const createCallController = (deps: CallDeps) => {
  const { api, softphone, sounds, ui, timers } = deps;
  const ledger = createFrameLedger();
  let setupTimer: number | undefined;
  let leftCallTimer: number | undefined;

  const clearSetupTimer = () => {
    timers.clear(setupTimer);
    setupTimer = undefined;
  };

  const dialContext = () => {
    const ext = useExtension.getState();
    return {
      callStatus: useCall.getState().callStatus,
      merchantType: deps.merchantType(),
      sip: ext.sip,
      registerStatus: ext.registerStatus,
    };
  };

  /** Ends the call on screen: timers, ring, end tone, back to status 1 (SPEC §4). */
  const endCall = (call: ActiveCall, options: { error?: string; notice?: string } = {}) => {
    clearSetupTimer();
    // sip line: the local SIP session ends with the record (nothing to do when it already has)
    softphone.hangup?.();
    sounds.stopRing();
    sounds.ended();
    ledger.ended(call.uuid);
    const isMissed = call.callType === CALL_TYPE.inbound && call.answeredAt === null;
    const cmStid = call.cmStid ?? 0;
    useCall.getState().ended(cmStid > 0);
    if (options.error) ui.message?.error(options.error);
    else if (options.notice) ui.message?.info(options.notice);
    deps.onCallOver({ cmCtid: call.cmCtid, isMissed });
    if (cmStid > 0) {
      const event: TaskCallEvent = {
        code: 'endCall',
        uuid: call.uuid,
        yearMonth: call.yearMonth,
        cmStid,
        isAnswered: call.answeredAt !== null,
      };
      timers.set(() => deps.onTaskCall?.(event), END_CALL_EVENT_DELAY_MS);
    }
  };

  /**
   * A seat task's call: the server dialled the agent's next number itself (issue 15), so its first
   * frame names a call this page never placed. It is shown as a dial of his (the customer or
   * 暂无客户信息); on the sip line the browser places it to the call's uuid as for a dial.
   */
  const adoptTaskCall = (p: CallProgress) => {
    if (p.cmStid <= 0 || p.callType !== CALL_TYPE.outbound || p.event === 'ended' || ledger.isEnded(p.uuid)) return;
    if (useCall.getState().call) return;
    const isDevice = deps.merchantType() === 2;
    startCall({
      uuid: p.uuid,
      yearMonth: p.yearMonth,
      callType: CALL_TYPE.outbound,
      phone: p.phone,
      name: p.name,
      cmCtid: p.cmCtid,
      isDevice,
      startedAt: deps.now(),
      answeredAt: null,
      cmStid: p.cmStid,
    });
    deps.onTaskCall?.({ code: 'startCall', uuid: p.uuid, yearMonth: p.yearMonth, cmStid: p.cmStid });
    if (!isDevice) {
      softphone.call?.(p.uuid).catch((err: unknown) => {
        ui.message?.error(err instanceof Error ? err.message : '呼叫失败');
      });
    }
  };

  const startCall = (call: ActiveCall) => {
    ledger.started(call.uuid);
    useCall.getState().started(call);
    if (call.callType === CALL_TYPE.outbound) {
      clearSetupTimer();
      // SPEC §9: unanswered after 60 s → 呼叫超时! then hang up
      setupTimer = timers.set(() => {
        const current = useCall.getState();
        if (current.call?.uuid !== call.uuid || current.callStatus !== CALL_STATUS.dialling) return;
        ui.message?.error('呼叫超时!');
        void hangup({ isForced: true });
      }, CALL_LIMITS.setupTimeoutSeconds * 1000);
    }
    for (const p of ledger.takeHeld(call.uuid)) applyProgress(p);
  };

  const applyProgress = (p: CallProgress) => {
    if (ledger.isEnded(p.uuid)) return;
    const { call } = useCall.getState();
    if (!call && p.event === 'ended' && takeLeftCall(deps.storage, p.uuid, deps.now())) {
      timers.clear(leftCallTimer);
      ui.message?.info(leftCallNotice(p.billsec));
      deps.onCallOver({ cmCtid: p.cmCtid, isMissed: false });
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
    if (ledger.isEnded(p.uuid)) return;
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
        startedAt: deps.now(),
        answeredAt: null,
        isPutThrough: p.autoAnswer === 1,
      });
      if (p.autoAnswer === 1) {
        putThrough(p);
        return;
      }
      sounds.startRing();
      ui.message?.info({ content: `来电提醒：${p.phone}，请及时跟进`, duration: 6 });
      return;
    }
    applyProgress(p);
  };

  /**
   * A group dialer's put-through (issue 23): the customer has answered and waits, and the agent works
   * the task, so his phone answers at once: a short tone instead of the ring, the customer card
   * (the call window with the customer, 客户详情), the timer from the connect. sim line: the server
   * answers his leg; sip line: JsSIP answers the INVITE that rings it.
   */
  const putThrough = (p: CallProgress) => {
    sounds.putThrough();
    ui.message?.info({ content: `群呼接通：${p.name || p.phone || '客户'}`, duration: 4 });
    void answer();
  };

  /** SPEC §4: accepting an incoming call → status 3, the ring stops. */
  const answer = async () => {
    const { call } = useCall.getState();
    if (!call || call.callType !== CALL_TYPE.inbound) return;
    sounds.stopRing();
    // sip line: the browser answers the SIP call; the 'answered' frame follows from Kamailio's report
    // (a put-through's frame may come before its INVITE: the phone waits for it a moment)
    if (await softphone.answer?.(call.isPutThrough ? call.uuid : undefined)) return;
    try {
      await api.answer({ uuid: call.uuid, yearMonth: call.yearMonth });
    } catch {
      return;
    }
    if (useCall.getState().call?.uuid === call.uuid && useCall.getState().callStatus !== CALL_STATUS.talking) {
      clearSetupTimer();
      sounds.answered();
      useCall.getState().answered();
    }
  };

  /** SPEC §5 hang-up: refused in the first 2 s; device calls end on the phone when no device is bound. */
  const hangup = async ({ isForced = false } = {}) => {
    const { call } = useCall.getState();
    if (!call) return;
    if (!isForced) {
      // the server applies the same rule to incoming calls, counted from the first ring
      const refusal = hangupRefusal(call.startedAt, deps.now());
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
      await (call.isDevice ? api.deviceHangup(body) : api.hangup(body));
    } catch (err) {
      // a call the server already closed is over here too
      if (deps.isCallGone(err)) endCall(call);
      return;
    }
    // the 'ended' frame follows; close the screen now so a slow socket never keeps the agent waiting
    if (useCall.getState().call?.uuid === call.uuid) endCall(call);
  };

  /**
   * The next page: the call it left is over when the extension has no call any more; until
   * then (a minute at most) it asks again, unless the call's 'ended' frame says so first.
   */
  const checkLeftCall = async (sip: SipDefault): Promise<void> => {
    timers.clear(leftCallTimer);
    const uuid = pendingLeftCall(deps.storage, deps.now());
    if (!uuid || useCall.getState().call) return;
    if (!sip || sip.callStatus < CALL_STATUS.dialling) {
      if (takeLeftCall(deps.storage, uuid, deps.now())) {
        ui.message?.info(leftCallNotice());
        deps.onCallOver({ cmCtid: 0, isMissed: false });
      }
      return;
    }
    leftCallTimer = timers.set(() => {
      api.sipDefault().then(
        (next) => checkLeftCall(next),
        () => undefined,
      );
    }, LEFT_CALL_POLL_MS);
  };

  const toActiveCall = (r: DialResponse | DirectDialResponse, isDevice: boolean): ActiveCall =>
    'id' in r
      ? {
          uuid: r.uuid || r.id,
          yearMonth: r.yearMonth,
          callType: CALL_TYPE.outbound,
          phone: r.dstNumber,
          name: r.name,
          cmCtid: r.cmCtid,
          isDevice,
          startedAt: deps.now(),
          answeredAt: null,
        }
      : {
          uuid: r.uuid,
          yearMonth: r.yearMonth,
          callType: r.callType || CALL_TYPE.outbound,
          phone: r.phone,
          name: r.name,
          cmCtid: r.cmCtid,
          isDevice,
          startedAt: deps.now(),
          answeredAt: null,
        };

  return {
    /** SPEC §5 dial (by customer and number id, or a typed number): checks, then the server call. */
    dial: async (target: DialBody): Promise<boolean> => {
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
      if (!deps.socket.isOpen) deps.socket.connect();
      const isDevice = deps.merchantType() === 2;
      ledger.dialStarted();
      try {
        const call = toActiveCall(isDevice ? await api.deviceDial(target) : await api.dial(target), isDevice);
        startCall(call);
        // sip line: the browser places the call to the opaque uuid; Kamailio asks the server for the number
        if (!isDevice) {
          softphone.call?.(call.uuid).catch((err: unknown) => {
            ui.message?.error(err instanceof Error ? err.message : '呼叫失败');
          });
        }
        return true;
      } catch (err) {
        ledger.takeHeld('');
        deps.onDialError(err);
        return false;
      } finally {
        ledger.dialSettled();
      }
    },

    hangup,

    answer,

    /** The floating call button (SPEC §4): at status 0 it opens the dialler, otherwise re-shows the open modal. */
    onCallButton: () => {
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
    },

    /** One call socket frame; returns true when it was the socket's login (the extension reloads then). */
    handleFrame: (frame: CallFrame): boolean => {
      const action = frameAction(frame);
      if (action.kind === 'progress') {
        if (!ledger.hold(action.progress, useCall.getState().call !== null)) {
          adoptTaskCall(action.progress);
          applyProgress(action.progress);
        }
      } else if (action.kind === 'incoming') onIncoming(action.progress);
      else if (action.kind === 'takenOver') {
        const { call } = useCall.getState();
        if (call) endCall(call);
      }
      return action.kind === 'loggedIn';
    },

    /**
     * sip line: the browser could not place the call (microphone, connection, WebRTC): the agent is
     * told and the record is closed on the server as soon as the SPEC §5 hang-up minimum allows.
     */
    onLocalFailure: (reason: LocalFailure) => {
      const { call } = useCall.getState();
      if (!call || call.isDevice || call.callType !== CALL_TYPE.outbound) return;
      ui.message?.error(reason === 'microphone' ? '无法打开麦克风，呼叫失败' : '呼叫失败，请检查网络后重试');
      const waitMs = Math.max(0, CALL_LIMITS.hangupMinSeconds * 1000 - (deps.now() - call.startedAt) + 200);
      timers.set(() => {
        if (useCall.getState().call?.uuid === call.uuid) void hangup({ isForced: true });
      }, waitMs);
    },

    /** The sip phone lost its connection: a call it carried is over and the server is told. True when there was one. */
    onConnectionLost: (): boolean => {
      const { call } = useCall.getState();
      if (!call || call.isDevice) return false;
      ui.message?.error('与呼叫服务器的连接中断，通话已结束');
      void hangup({ isForced: true });
      return true;
    },

    /**
     * The page is being left (reload, close) during a call: on every line the call is hung up on
     * the server, so no record stays open, and remembered for the next page's notice.
     * Device calls go on, on the phone.
     */
    leavePage: () => {
      const { call } = useCall.getState();
      if (!call || call.isDevice) return;
      rememberLeftCall(deps.storage, call.uuid, deps.now());
      api.hangupOnLeave({ uuid: call.uuid, yearMonth: call.yearMonth });
    },

    checkLeftCall,

    /** Session end: timers, ring and frame memory cleared (the stores are reset by the caller). */
    reset: () => {
      clearSetupTimer();
      timers.clear(leftCallTimer);
      sounds.stopRing();
      ledger.clear();
    },
  };
};
export type CallController = ReturnType<typeof createCallController>;
