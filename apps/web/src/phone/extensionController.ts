import { CALL_LIMITS, CALL_STATUS, PHONE_STATE, REGISTER_STATUS, type SipDefault } from '@crm/contracts';
import type { PhoneUi, Timers } from './callDeps';
import { useCall, useExtension } from './phoneStore';
import { ConnectionLostError, type Softphone } from './softphoneTypes';

export type ExtensionDeps = {
  api: { sipDefault: () => Promise<SipDefault>; savePhoneState: (phoneState: 0 | 1 | 2) => Promise<unknown> };
  softphone: Pick<Softphone, 'register' | 'unregister'>;
  ui: PhoneUi;
  merchantType: () => number;
  timers: Timers;
  checkMicrophone: () => Promise<string | null>;
  /** the default extension was read (the call controller checks the call a left page had) */
  onLoaded: (sip: SipDefault) => void;
};

/**
 * The default extension of SPEC §4: reading it, registering (sim: a state report; sip: JsSIP),
 * the header's online/busy/offline and the 5 s re-initialisation after a lost connection.
 */
export const createExtensionController = (deps: ExtensionDeps) => {
  const { softphone, ui, timers } = deps;
  let reinitTimer: number | undefined;
  let loading: Promise<void> | null = null;

  const clearReinit = () => {
    timers.clear(reinitTimer);
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
    reinitTimer = timers.set(() => {
      reinitTimer = undefined;
      const ext = useExtension.getState();
      const wantsOnline = ext.sip !== null && ext.phoneState !== PHONE_STATE.offline && deps.merchantType() === 1;
      if (wantsOnline && ext.registerStatus === REGISTER_STATUS.failed) void register();
    }, CALL_LIMITS.reinitDebounceMs);
  };

  const readExtension = async () => {
    let sip: SipDefault;
    try {
      sip = await deps.api.sipDefault();
    } catch {
      return;
    }
    const ext = useExtension.getState();
    ext.setSip(sip);
    ext.setPhoneState(sip?.phoneState ?? 0);
    deps.onLoaded(sip);
    if (
      sip &&
      deps.merchantType() === 1 &&
      sip.phoneState !== PHONE_STATE.offline &&
      ext.registerStatus === REGISTER_STATUS.unregistered
    )
      await register();
  };

  /**
   * Reads the default extension; a normal account left online re-registers (SPEC §4 re-initialise).
   * One read at a time; a failed read is retried when the call socket logs in again.
   */
  const loadExtension = () => {
    loading ??= readExtension().finally(() => {
      loading = null;
    });
    return loading;
  };

  return {
    loadExtension,

    /** After the default extension changed (/call/mysip): the old one is let go and the new one loaded. */
    reloadExtension: async () => {
      if (useCall.getState().callStatus > CALL_STATUS.ready) return;
      if (useExtension.getState().registerStatus !== REGISTER_STATUS.unregistered) {
        useExtension.getState().registerEvent('unregister');
        await softphone.unregister({ isSilent: true }).catch(() => undefined);
      }
      await loadExtension();
    },

    /**
     * SPEC §4 header dropdown: online/busy first checks the microphone, then saves the phone state
     * on the server and registers; offline saves and unregisters.
     */
    changePhoneState: async (target: 0 | 1 | 2) => {
      const ext = useExtension.getState();
      if (!ext.sip) {
        ui.message?.warning('暂无默认分机');
        return;
      }
      if (target !== PHONE_STATE.offline) {
        const micError = await deps.checkMicrophone();
        if (micError) {
          ui.message?.error(micError);
          return;
        }
      } else if (useCall.getState().callStatus > CALL_STATUS.ready) {
        ui.message?.warning('通话中，请挂断后再切换为离线');
        return;
      }
      try {
        await deps.api.savePhoneState(target);
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
    },

    /** The sip phone lost its connection: failed, then re-initialised (a call it carried was ended by the caller). */
    onConnectionLost: (hadCall: boolean) => {
      useExtension.getState().registerEvent('failed');
      if (!hadCall) ui.message?.warning('与呼叫服务器的连接中断，5 秒后自动重新注册');
      scheduleReinit();
    },

    /** Session end: the softphone lets the extension go (the stores are reset by the caller). */
    reset: () => {
      clearReinit();
      const wasRegistered = useExtension.getState().registerStatus !== REGISTER_STATUS.unregistered;
      if (wasRegistered) void softphone.unregister({ isSilent: true }).catch(() => undefined);
    },
  };
};
export type ExtensionController = ReturnType<typeof createExtensionController>;
