import { REGISTER_STATUS } from '@crm/contracts';
import { http } from '../api/http';
import type { LocalFailure, Softphone } from './softphoneTypes';

const reportStatus = (registerStatus: 0 | 1 | 3 | 4, isSilent = false) =>
  http.post<null>('/api/frontend/call/sipdefaultregisterStatus', { registerStatus }, { silent: isSilent });

/** The simulated line: the server places and answers calls itself, so registering is a state report. */
export const simSoftphone: Softphone = {
  register: async () => {
    await reportStatus(REGISTER_STATUS.registering);
    await reportStatus(REGISTER_STATUS.registered);
  },
  unregister: async ({ isSilent = false } = {}) => {
    await reportStatus(REGISTER_STATUS.unregistered, isSilent);
  },
  sendDtmf: () => false,
};

let active: Softphone = simSoftphone;
let lostListener: () => void = () => undefined;
let failureListener: (reason: LocalFailure) => void = () => undefined;

/** The line the server names: JsSIP (loaded on demand) for 'sip', the sim otherwise. */
export const softphone: Softphone = {
  register: async (sip) => {
    active = sip.telephony === 'sip' ? (await import('./jssipSoftphone')).jssipSoftphone : simSoftphone;
    active.onConnectionLost?.(() => lostListener());
    active.onLocalFailure?.((reason) => failureListener(reason));
    await active.register(sip);
  },
  unregister: (options) => active.unregister(options),
  sendDtmf: (digit) => active.sendDtmf(digit),
  call: async (uuid) => active.call?.(uuid),
  answer: async (uuid) => (active.answer ? active.answer(uuid) : false),
  hangup: () => active.hangup?.(),
  stats: async () => (active.stats ? active.stats() : null),
  onConnectionLost: (listener) => {
    lostListener = listener;
  },
  onLocalFailure: (listener) => {
    failureListener = listener;
  },
};

// the real-call test (e2e/sip) reads the WebRTC statistics of the call
if (typeof window !== 'undefined') (window as unknown as { __crmSoftphone?: Softphone }).__crmSoftphone = softphone;
