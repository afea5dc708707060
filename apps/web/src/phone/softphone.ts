import { REGISTER_STATUS, type SipInfo } from '@crm/contracts';
import { http } from '../api/http';

/**
 * What the header and the call flow need from a softphone. The `sim` provider registers by
 * telling the server and has no media; the JsSIP provider (a later issue) registers to the SIP
 * server over WebSocket and carries the audio, behind the same interface.
 */
export type Softphone = {
  /** resolves once registered, rejects when registration failed */
  register: (sip: SipInfo) => Promise<void>;
  unregister: (options?: { isSilent?: boolean }) => Promise<void>;
  /** sends a keypad digit into the call; false when this provider cannot (the digit is only shown) */
  sendDtmf: (digit: string) => boolean;
};

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

export const softphone: Softphone = simSoftphone;
