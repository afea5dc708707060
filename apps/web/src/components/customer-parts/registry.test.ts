import { describe, expect, it } from 'vitest';
import { type CustomerPart, loadCustomerParts, registerCustomerParts } from './registry';

const Empty = () => null;

describe('customer detail registry', () => {
  it('merges every feature part and sorts tabs and actions by their order', async () => {
    const parts: CustomerPart[] = [
      {
        tabs: [{ key: 'work', label: '工单', order: 60, flag: 'work', Panel: Empty }],
        actions: [{ key: 'claim', order: 60, Action: Empty }],
      },
      { tabs: [{ key: 'phone', label: '联系电话', order: 20, flag: 'phone', Panel: Empty }] },
      { actions: [{ key: 'order', order: 10, Action: Empty }] },
    ];
    registerCustomerParts(async () => parts);
    const loaded = await loadCustomerParts();
    expect(loaded.tabs.map((t) => t.key)).toEqual(['phone', 'work']);
    expect(loaded.actions.map((a) => a.key)).toEqual(['order', 'claim']);
  });

  it('loads once, and tries again after a failed load', async () => {
    let calls = 0;
    registerCustomerParts(async () => {
      calls += 1;
      if (calls === 1) throw new Error('Loading chunk timed out');
      return [];
    });
    await expect(loadCustomerParts()).rejects.toThrow('Loading chunk');
    await loadCustomerParts();
    await loadCustomerParts();
    expect(calls).toBe(2);
  });
});
