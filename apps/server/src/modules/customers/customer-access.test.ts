import { describe, expect, it } from 'vitest';
import type { Actor } from '../../lib/auth-context';
import {
  canSee,
  isCallNumberMasked,
  isMaskedFor,
  isNumberMasked,
  phoneMatches,
  phoneMatchOf,
  type Viewer,
} from './customer-access';

const actor = { staffId: 3, tenantId: 1 } as Actor;
const viewer = (over: Partial<Viewer> = {}): Viewer => ({
  actor,
  scope: [3],
  poolIds: [7],
  isPrivateMasked: false,
  isPoolMasked: true,
  ...over,
});

describe('phone filters', () => {
  it('no digits match nothing, masked or not', () => {
    for (const text of ['abc', '%', '*', '_', '--']) {
      expect(phoneMatchOf(text, true), text).toEqual({ kind: 'none' });
      expect(phoneMatchOf(text, false), text).toEqual({ kind: 'none' });
    }
  });

  it('a masked number matches only whole; an unmasked one by a part', () => {
    expect(phoneMatchOf('139120', true)).toEqual({ kind: 'exact', phone: '139120' });
    expect(phoneMatchOf('139120', false)).toEqual({ kind: 'part', digits: '139120' });
    expect(phoneMatchOf('138 1234 5678', false)).toEqual({ kind: 'exact', phone: '13812345678' });
    expect(phoneMatchOf('95588', true)).toEqual({ kind: 'exact', phone: '95588' });
    expect(phoneMatches({ kind: 'exact', phone: '13812345678' }, '138-1234-5678')).toBe(true);
    expect(phoneMatches({ kind: 'exact', phone: '1381234567' }, '13812345678')).toBe(false);
    expect(phoneMatches({ kind: 'part', digits: '5678' }, '13812345678')).toBe(true);
    expect(phoneMatches({ kind: 'none' }, '13812345678')).toBe(false);
  });
});

describe('visibility and masking per customer', () => {
  it('private customers by data scope, pool customers by usable pool', () => {
    const v = viewer();
    expect(canSee(v, { ownerId: 3, poolId: null })).toBe(true);
    expect(canSee(v, { ownerId: 4, poolId: null })).toBe(false);
    expect(canSee(v, { ownerId: null, poolId: 7 })).toBe(true);
    expect(canSee(v, { ownerId: null, poolId: 8 })).toBe(false);
    expect(canSee(viewer({ scope: null, poolIds: null }), { ownerId: 99, poolId: null })).toBe(true);
  });

  it('pool customers follow seaPhoneEncryp, private ones phoneEncryp, unseen ones are always masked', () => {
    const v = viewer();
    expect(isMaskedFor(v, { ownerId: 3, poolId: null })).toBe(false);
    expect(isMaskedFor(v, { ownerId: null, poolId: 7 })).toBe(true);
    expect(isMaskedFor(v, { ownerId: 4, poolId: null })).toBe(true);
    const open = viewer({ isPoolMasked: false });
    expect(isMaskedFor(open, { ownerId: null, poolId: 7 })).toBe(false);
    expect(isMaskedFor(open, { ownerId: null, poolId: 8 })).toBe(true);
  });

  it('a call without customer: an incoming caller masked like a private customer, a typed number not', () => {
    const masked = viewer({ isPrivateMasked: true });
    expect(isCallNumberMasked(masked, { callType: 4, customer: undefined })).toBe(true);
    expect(isCallNumberMasked(masked, { callType: 1, customer: undefined })).toBe(false);
    expect(isCallNumberMasked(viewer(), { callType: 4, customer: undefined })).toBe(false);
    expect(isCallNumberMasked(viewer(), { callType: 1, customer: { ownerId: null, poolId: 7 } })).toBe(true);
  });

  it('a task number (seat, group, AI task, and the calls they place): its customer’s rule, else masked as a private customer', () => {
    const masked = viewer({ isPrivateMasked: true });
    // imported, no customer: nobody typed it, so phoneEncryp masks it (and the call a task placed to it)
    expect(isNumberMasked(masked, { kind: 'task', customerId: null, customer: undefined })).toBe(true);
    expect(isCallNumberMasked(masked, { callType: 1, taskId: 5, customer: undefined })).toBe(true);
    expect(isNumberMasked(viewer(), { kind: 'task', customerId: null, customer: undefined })).toBe(false);
    // a colleague's customer: always masked, whatever the flags; the caller's own: by phoneEncryp
    const open = viewer({ isPoolMasked: false });
    expect(isCallNumberMasked(open, { callType: 1, taskId: 5, customerId: 9, customer: { ownerId: 4, poolId: null } })).toBe(
      true,
    );
    expect(isCallNumberMasked(open, { callType: 1, taskId: 5, customerId: 9, customer: { ownerId: 3, poolId: null } })).toBe(
      false,
    );
    // the recorded customer is gone: masked
    expect(isNumberMasked(open, { kind: 'task', customerId: 9, customer: undefined })).toBe(true);
    expect(isCallNumberMasked(open, { callType: 1, taskId: 0, customerId: 9, customer: undefined })).toBe(true);
  });
});
