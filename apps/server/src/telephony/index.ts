import type { Config } from '../config';
import type { TelephonyProvider } from './provider';
import { createSimProvider } from './sim/sim-provider';
import { createKamailioControl } from './sip/kamailio-control';
import { createSipProvider } from './sip/sip-provider';

/** The configured line (TELEPHONY): the built-in sim carrier, or the real sip line (Kamailio + rtpengine). */
export const createProvider = (config: Config): TelephonyProvider => {
  if (config.telephony === 'sip') {
    const { rpcUrl, internalSecret, recordingDir } = config.sip;
    const control = rpcUrl ? createKamailioControl({ url: rpcUrl, secret: internalSecret }) : undefined;
    return createSipProvider({ recordingDir, control });
  }
  return createSimProvider({ speed: config.simSpeed, talkSeconds: config.simTalkSeconds });
};
