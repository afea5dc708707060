import { CALL_TYPE, type CallRecordRow } from '@crm/contracts';

/**
 * 主叫 and 被叫 of a call record (SPEC §3). The server keeps the customer's number in dstNumber
 * whatever the direction: outbound the extension calls the customer; incoming the customer
 * (cmgoidCaller, masked like dstNumber) calls the extension.
 */
export const callParties = (row: Pick<CallRecordRow, 'callType' | 'cmgoidCaller' | 'dstNumber' | 'cmSipuser'>) =>
  row.callType === CALL_TYPE.inbound
    ? { caller: row.cmgoidCaller || row.dstNumber, called: row.cmSipuser }
    : { caller: row.cmgoidCaller || row.cmSipuser, called: row.dstNumber };
