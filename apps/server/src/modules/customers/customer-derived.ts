/** What a customer's stored values derive: the contact columns, the phone index rows, and masked numbers sent back meaning "unchanged". */
import { DM_TYPE, type SubmittedControl } from '@crm/contracts';
import { maskPhone, normalisePhone } from '../../lib/phone';
import type { LoadedTemplate } from './customer-templates.service';

/** The list columns a customer's values fill: the first 联系人 text and the first phone. */
export const contactOf = (tpl: LoadedTemplate, vals: Record<string, string[]>) => {
  let contactName = '';
  let contactPhone = '';
  for (const c of tpl.enabled) {
    const value = vals[String(c.id)]?.[0];
    if (!value) continue;
    if (!contactName && c.dmType === DM_TYPE.text && c.name.includes('联系人')) contactName = value;
    if (!contactPhone && c.dmType === DM_TYPE.phone) contactPhone = value;
  }
  return { contactName, contactPhone };
};

/** The normalised numbers of the phone controls (the customer_phones rows). */
export const phonesOf = (tpl: LoadedTemplate, vals: Record<string, string[]>) =>
  tpl.enabled.flatMap((c) => {
    if (c.dmType !== DM_TYPE.phone) return [];
    const raw = vals[String(c.id)]?.[0];
    const n = raw ? normalisePhone(raw) : null;
    return n ? [{ controlId: c.id, phone: n.phone }] : [];
  });

/** Replaces a submitted phone equal to the mask of the stored one by the stored number. */
export const unmaskPhones = (
  tpl: LoadedTemplate,
  stored: Record<string, string[]>,
  submitted: SubmittedControl[],
): SubmittedControl[] => {
  const phoneIds = new Set(tpl.enabled.filter((c) => c.dmType === DM_TYPE.phone).map((c) => c.id));
  const fix = (list: SubmittedControl[]): SubmittedControl[] =>
    list.map((c) => {
      const before = stored[String(c.cbTacid)]?.[0];
      const value = c.dmValue[0];
      const isMaskOfStored = phoneIds.has(c.cbTacid) && before && value?.includes('*') && maskPhone(before) === value;
      return { ...c, dmValue: isMaskOfStored ? [before] : c.dmValue, children: c.children ? fix(c.children) : undefined };
    });
  return fix(submitted);
};
