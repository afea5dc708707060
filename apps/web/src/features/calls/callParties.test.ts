import { describe, expect, it } from 'vitest';
import { callParties } from './callParties';

describe('callParties', () => {
  it('outbound: the extension calls the customer', () => {
    expect(callParties({ callType: 1, cmgoidCaller: '8001', dstNumber: '13912345607', cmSipuser: '8001' })).toEqual({
      caller: '8001',
      called: '13912345607',
    });
  });

  it('incoming: the customer calls the extension, never shown as 被叫', () => {
    expect(callParties({ callType: 4, cmgoidCaller: '139****5601', dstNumber: '139****5601', cmSipuser: '8001' })).toEqual({
      caller: '139****5601',
      called: '8001',
    });
  });
});
