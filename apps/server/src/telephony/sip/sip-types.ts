/** The names the sip line and its Kamailio control share: a dialog, and what the app may ask of Kamailio. */

/** How Kamailio names a call: its INVITE (Call-ID + CSeq, to cancel it) and its dialog (to end it). */
export type SipDialog = { callId: string; cseq: string; fromTag: string; toTag: string };

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
