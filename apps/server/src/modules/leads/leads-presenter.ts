/** Registry rows as the pages see them (LeadCompany). */
import { industryLabel, LEAD_STATUS_LABEL, type LeadCompany } from '@crm/contracts';
import { regionLabelPath } from '@crm/regions';
import { formatDateTime } from '../../lib/time';
import type { LeadRow } from './leads.repo';

/** 13x… or 1[3-9] followed by 9 digits: a mobile number (has-mobile filter, task numbers). */
export const isMobile = (phone: string) => /^(\+?86)?1[3-9]\d{9}$/.test(phone.replace(/[\s-]/g, ''));

export const toLeadCompany = (row: LeadRow): LeadCompany => {
  const regionCodes = [row.provinceCode, row.cityCode, row.districtCode].filter((c): c is number => c !== null && c > 0);
  return {
    id: row.id,
    creditCode: row.creditCode ?? '',
    name: row.name,
    legalRep: row.legalRep,
    status: row.status,
    statusLabel: LEAD_STATUS_LABEL[row.status] ?? '',
    regionCodes,
    regionLabel: regionLabelPath(regionCodes).join('/'),
    industrySection: row.industrySection,
    industryCode: row.industryCode,
    industryLabel: industryLabel(row.industryCode || row.industrySection),
    capitalWan: row.capitalWan,
    foundedOn: row.foundedOn ?? '',
    address: row.address,
    scope: row.scope,
    phones: row.phones,
    hasPhone: row.hasPhone,
    hasMobile: row.hasMobile,
    lat: row.lat,
    lng: row.lng,
    source: row.source,
    isOwn: row.tenantId !== null,
    fetchedAt: formatDateTime(row.fetchedAt),
  };
};
