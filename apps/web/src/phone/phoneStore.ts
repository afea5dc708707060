import { CALL_STATUS, REGISTER_STATUS, type SipInfo } from '@crm/contracts';
import { create } from 'zustand';
import { nextRegisterStatus, type RegisterEvent } from './extensionState';

/** The extension (SPEC §4): the default extension, its registration and phone state. */
type ExtensionState = {
  /** the default extension; null when there is none (暂无默认分机) */
  sip: SipInfo | null;
  isLoaded: boolean;
  registerStatus: number;
  phoneState: number;
  setSip: (sip: SipInfo | null) => void;
  registerEvent: (event: RegisterEvent) => void;
  setPhoneState: (phoneState: number) => void;
  reset: () => void;
};

export const useExtension = create<ExtensionState>()((set) => ({
  sip: null,
  isLoaded: false,
  registerStatus: REGISTER_STATUS.unregistered,
  phoneState: 0,
  setSip: (sip) => set({ sip, isLoaded: true }),
  registerEvent: (event) => set((s) => ({ registerStatus: nextRegisterStatus(s.registerStatus, event) })),
  setPhoneState: (phoneState) => set({ phoneState }),
  reset: () => set({ sip: null, isLoaded: false, registerStatus: REGISTER_STATUS.unregistered, phoneState: 0 }),
}));

/** The call on screen. */
export type ActiveCall = {
  uuid: string;
  yearMonth: string;
  /** 1 outbound, 4 incoming */
  callType: number;
  /** as the server gives it, masked when the agent may not see it */
  phone: string;
  name: string;
  cmCtid: number;
  /** placed through the bound phone (merchantType 2) */
  isDevice: boolean;
  /** local clock (ms) of the dial or of the incoming ring */
  startedAt: number;
  /** local clock (ms) of the answer, null before */
  answeredAt: number | null;
  /** the seat task (cmStid) of a call the server dialled for the agent's task; 0 or absent otherwise */
  cmStid?: number;
  /** a group dialer's customer put through to the agent, answered by his phone itself (issue 23) */
  isPutThrough?: boolean;
};

/**
 * The call state machine of SPEC §4: 0 idle → 1 dialler open → 2 dialling/ringing → 3 talking
 * → back to 1. The two modals only show or hide; the status says where the agent is.
 */
type CallState = {
  callStatus: number;
  call: ActiveCall | null;
  isDialOpen: boolean;
  isInCallOpen: boolean;
  openDialler: () => void;
  /** 取消: the dialler closes; without a call the phone is idle again */
  closeDialler: () => void;
  setDialOpen: (isOpen: boolean) => void;
  setInCallOpen: (isOpen: boolean) => void;
  started: (call: ActiveCall) => void;
  answered: () => void;
  /** the call is over: back to the dialler (1), or to idle (0) after a task call (SPEC §4) */
  ended: (isTaskCall?: boolean) => void;
  reset: () => void;
};

export const useCall = create<CallState>()((set) => ({
  callStatus: CALL_STATUS.none,
  call: null,
  isDialOpen: false,
  isInCallOpen: false,
  openDialler: () => set((s) => ({ callStatus: Math.max(s.callStatus, CALL_STATUS.ready), isDialOpen: true })),
  closeDialler: () =>
    set((s) => ({ isDialOpen: false, callStatus: s.callStatus === CALL_STATUS.ready ? CALL_STATUS.none : s.callStatus })),
  setDialOpen: (isDialOpen) => set({ isDialOpen }),
  setInCallOpen: (isInCallOpen) => set({ isInCallOpen }),
  started: (call) => set({ call, callStatus: CALL_STATUS.dialling, isDialOpen: false, isInCallOpen: true }),
  answered: () =>
    set((s) =>
      s.call ? { callStatus: CALL_STATUS.talking, call: { ...s.call, answeredAt: s.call.answeredAt ?? Date.now() } } : {},
    ),
  ended: (isTaskCall = false) =>
    set({ call: null, callStatus: isTaskCall ? CALL_STATUS.none : CALL_STATUS.ready, isInCallOpen: false }),
  reset: () => set({ callStatus: CALL_STATUS.none, call: null, isDialOpen: false, isInCallOpen: false }),
}));
