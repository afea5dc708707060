import type { SipDialog } from './sip-provider';

/**
 * What the app asks of Kamailio when it ends a call itself (the browser left, the set-up timeout,
 * a second login): Kamailio's JSON-RPC over HTTP (jsonrpcs + xhttp, path /RPC on the WebSocket
 * port), guarded there by X-Telephony-Secret and limited to these two commands (crm.end_dialog is the script's own, route[END_DIALOG]).
 */
export type SipControl = {
  /** BYE to both ends of a confirmed dialog, the customer's first; false when Kamailio did not do it */
  endDialog: (dialog: SipDialog) => Promise<boolean>;
  /** CANCEL of an INVITE still ringing (tm.cancel); false when Kamailio did not do it */
  cancelInvite: (callId: string, cseq: string) => Promise<boolean>;
};

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
