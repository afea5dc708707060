import { PHONE_STATE, REGISTER_STATUS } from '@crm/contracts';

/** SPEC §4 registration events of the softphone. */
export type RegisterEvent = 'register' | 'registered' | 'failed' | 'unregister';

/**
 * SPEC §4 extension registration: 0 → 3 registering → 1 registered or 4 failed; unregister
 * returns to 0. A retry from failed goes through registering again; events that make no sense
 * in the current state leave it as it is.
 */
export const nextRegisterStatus = (status: number, event: RegisterEvent): number => {
  switch (event) {
    case 'register':
      return status === REGISTER_STATUS.registered ? status : REGISTER_STATUS.registering;
    case 'registered':
      return status === REGISTER_STATUS.registering ? REGISTER_STATUS.registered : status;
    case 'failed':
      return status === REGISTER_STATUS.registering || status === REGISTER_STATUS.registered ? REGISTER_STATUS.failed : status;
    case 'unregister':
      return REGISTER_STATUS.unregistered;
  }
};

export type ExtensionDisplay = '离线' | '在线' | '忙线' | '注册中' | '注册失败';

/**
 * SPEC §4 wording in the header: online = registered with phoneState 1; busy = registered with
 * phoneState 2, or registerStatus 2; registering and failed as such; anything else offline.
 */
export const extensionDisplay = (registerStatus: number, phoneState: number): ExtensionDisplay => {
  if (registerStatus === REGISTER_STATUS.registering) return '注册中';
  if (registerStatus === REGISTER_STATUS.failed) return '注册失败';
  if (registerStatus === REGISTER_STATUS.busy) return '忙线';
  if (registerStatus === REGISTER_STATUS.registered) {
    if (phoneState === PHONE_STATE.busy) return '忙线';
    if (phoneState === PHONE_STATE.online) return '在线';
  }
  return '离线';
};
