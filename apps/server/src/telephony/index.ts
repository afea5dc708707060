import type { Config } from '../config';
import type { CallControlLine } from './control';
import type { TelephonyProvider } from './provider';
import { createSimControl } from './sim/sim-control';
import { createSimProvider } from './sim/sim-provider';
import { createKamailioControl } from './sip/kamailio-control';
import { createSipControl } from './sip/sip-control';
import { createSipProvider, type SipProvider } from './sip/sip-provider';

/** A provider of either line; `name` tells them apart (the sip one answers Kamailio's questions). */
export type AnyProvider = (TelephonyProvider & { readonly name: 'sim' }) | SipProvider;

/** The configured line (TELEPHONY): the built-in sim carrier, or the real sip line (Kamailio + rtpengine). */
export const createProvider = (config: Config): AnyProvider => {
  if (config.telephony === 'sip') {
    const { rpcUrl, internalSecret, recordingDir } = config.sip;
    const control = rpcUrl ? createKamailioControl({ url: rpcUrl, secret: internalSecret }) : undefined;
    return createSipProvider({ recordingDir, control });
  }
  return createSimProvider({ speed: config.simSpeed, talkSeconds: config.simTalkSeconds });
};

/**
 * The configured call-control line (issue 12, TELEPHONY): simulated legs (sim/sim-control.ts), or
 * the app's own SIP user agent through Kamailio and rtpengine (sip/sip-control.ts).
 */
export const createControlLine = (config: Config, onError: (err: unknown) => void): CallControlLine => {
  if (config.telephony === 'sip') {
    const line = createSipControl({ config: config.sip, recordingDir: config.sip.recordingDir });
    // a UA that cannot bind (address in use) refuses its operations; the server still serves the rest
    line.ready.catch(onError);
    return line;
  }
  return createSimControl({ speed: config.simSpeed, talkSeconds: config.simTalkSeconds });
};
