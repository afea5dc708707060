/**
 * Customers as lead search (modules/leads) asks about them: which of the company's live
 * customers (private and pooled) a registry company already is — by credit code (in the template
 * control the admin mapped it to), by phone, or by a similar name — told through the
 * customer-access policy: owner and name only to a caller who may see the customer, numbers
 * masked as the policy says.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customerPhones, customers } from '../../db/schema';
import { maskPhone } from '../../lib/phone';
import { staffNames } from '../staff/staff-lookup';
import { canSee, isMaskedFor, showPhone, type Viewer } from './customer-access';

export type LeadProbe = { key: number; creditCode: string; phones: string[]; nameGrams: string[]; nameNorm: string };
export type ExistingCustomer = {
  cmCtid: number;
  name: string;
  matchedBy: 'creditCode' | 'phone' | 'name';
  place: 'private' | 'pool';
  ownerName: string;
  isVisible: boolean;
  phone: string;
};

type Hit = { id: number; name: string; ownerId: number | null; poolId: number | null; phone: string };

const gramArray = (grams: string[]) =>
  sql`${`{${grams.map((g) => `"${g.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;

/**
 * For each probe, the customers it already is. `nameScore(a, b)` (0–100) decides a similar name
 * (≥ `minNameScore`); `creditControlId` is the template control holding credit codes (null: none mapped).
 */
export const existingCustomersFor = async (
  db: DbOrTx,
  v: Viewer,
  probes: LeadProbe[],
  opts: {
    creditControlId: number | null;
    nameScore: (a: string, b: string) => number;
    minNameScore: number;
    normalize: (s: string) => string;
  },
): Promise<Map<number, ExistingCustomer[]>> => {
  const tenantId = v.actor.tenantId;
  const live = and(eq(customers.tenantId, tenantId), isNull(customers.deletedAt));
  const found = new Map<number, { hit: Hit; by: ExistingCustomer['matchedBy'] }[]>();
  const add = (key: number, hit: Hit, by: ExistingCustomer['matchedBy']) => {
    const list = found.get(key) ?? [];
    if (!list.some((x) => x.hit.id === hit.id)) list.push({ hit, by });
    found.set(key, list);
  };
  const cols = { id: customers.id, name: customers.name, ownerId: customers.ownerId, poolId: customers.poolId };

  const codes = [...new Set(probes.map((p) => p.creditCode).filter(Boolean))];
  if (opts.creditControlId !== null && codes.length > 0) {
    const controlKey = String(opts.creditControlId);
    for (const code of codes) {
      const rows = await db
        .select(cols)
        .from(customers)
        .where(and(live, sql`${customers.vals} @> ${JSON.stringify({ [controlKey]: [code] })}::jsonb`))
        .limit(5);
      for (const p of probes.filter((x) => x.creditCode === code))
        for (const r of rows) add(p.key, { ...r, phone: '' }, 'creditCode');
    }
  }

  const phones = [...new Set(probes.flatMap((p) => p.phones))];
  if (phones.length > 0) {
    const rows = await db
      .select({ ...cols, phone: customerPhones.phone })
      .from(customerPhones)
      .innerJoin(customers, eq(customers.id, customerPhones.customerId))
      .where(and(eq(customerPhones.tenantId, tenantId), inArray(customerPhones.phone, phones), live));
    for (const p of probes) for (const r of rows) if (p.phones.includes(r.phone)) add(p.key, r, 'phone');
  }

  for (const p of probes) {
    if (p.nameGrams.length === 0) continue;
    const rows = await db
      .select(cols)
      .from(customers)
      .where(and(live, sql`${customers.nameGrams} @> ${gramArray(p.nameGrams)}`))
      .limit(20);
    for (const r of rows)
      if (opts.nameScore(p.nameNorm, opts.normalize(r.name)) >= opts.minNameScore) add(p.key, { ...r, phone: '' }, 'name');
  }

  const ownerIds = [...new Set([...found.values()].flat().flatMap((x) => (x.hit.ownerId === null ? [] : [x.hit.ownerId])))];
  const owners = await staffNames(db, tenantId, ownerIds);
  const out = new Map<number, ExistingCustomer[]>();
  for (const [key, list] of found) {
    out.set(
      key,
      list.map(({ hit, by }) => {
        const place = { ownerId: hit.ownerId, poolId: hit.poolId };
        const isVisible = canSee(v, place);
        // out of sight: always masked, and neither the customer's name nor its owner is told (issue 11)
        const phone = hit.phone ? (isVisible ? showPhone(isMaskedFor(v, place), hit.phone) : maskPhone(hit.phone)) : '';
        return {
          cmCtid: isVisible ? hit.id : 0,
          name: isVisible ? hit.name : '',
          matchedBy: by,
          place: hit.ownerId === null ? 'pool' : 'private',
          ownerName: isVisible ? (hit.ownerId === null ? '公海' : (owners.get(hit.ownerId) ?? '')) : '',
          isVisible,
          phone,
        };
      }),
    );
  }
  return out;
};
