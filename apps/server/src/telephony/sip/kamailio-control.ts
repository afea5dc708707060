import type { SipControl } from './sip-types';

// Kamailio's JSON-RPC client (the SipControl of sip-types.ts).

/** How long one RPC may take: the hang-up falls back to closing the record alone after it. */
const RPC_TIMEOUT_MS = 2_000;

export const createKamailioControl = (opts: { url: string; secret: string }): SipControl => {
  let seq = 0;
  const call = async (method: string, params: unknown): Promise<boolean> => {
    try {
      const res = await fetch(opts.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Telephony-Secret': opts.secret },
        body: JSON.stringify({ jsonrpc: '2.0', method, params, id: ++seq }),
        signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
      });
      if (!res.ok) return false;
      const body = (await res.json().catch(() => ({}))) as { error?: unknown };
      return body.error === undefined;
    } catch {
      return false;
    }
  };
  return {
    endDialog: ({ callId, fromTag, toTag }) => call('crm.end_dialog', { callId, fromTag, toTag }),
    cancelInvite: (callId, cseq) => call('tm.cancel', [callId, cseq]),
  };
};
