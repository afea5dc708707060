import type { DialBody, DialResponse, DirectDialResponse, HangupBody, MissedCallCount, SipDefault } from '@crm/contracts';
import { http } from '../api/http';

/** HTTP calls of the phone (SPEC §7 Extension and call). Errors of dial are shown by the caller (silent). */
export const phoneApi = {
  sipDefault: () => http.get<SipDefault>('/api/frontend/call/sipdefault', undefined, { silent: true }),
  savePhoneState: (phoneState: 0 | 1 | 2) => http.post<null>('/api/frontend/call/sipdefaultphoneState', { phoneState }),
  dial: (body: DialBody) => http.post<DialResponse>('/api/frontend/call/dial', body, { silent: true }),
  deviceDial: (body: DialBody) =>
    http.post<DirectDialResponse>('/api/callend/phone/dial', { ...body, sourceType: 2 }, { silent: true }),
  hangup: (body: HangupBody) => http.post<null>('/api/frontend/call/hangup', body),
  deviceHangup: (body: HangupBody) => http.post<null>('/api/callend/phone/hangup', body),
  answer: (body: HangupBody) => http.post<null>('/api/frontend/call/answer', body),
  /** SPEC §2 call button badge: missed incoming calls not yet seen, and marking them seen */
  missedCount: () => http.get<MissedCallCount>('/api/frontend/call/missedcount', undefined, { silent: true }),
  markMissedSeen: () => http.post<null>('/api/frontend/call/missedseen', {}, { silent: true }),
};
