import { DM_TYPE, type LeadSettings, type LeadSettingsBody, type TemplateControl } from '@crm/contracts';

/** What the 数据源与规则 form holds: key and secret start empty (the stored ones stay unless typed). */
export type LeadSettingsForm = {
  providerKey: string;
  providerSecret: string;
  dailyQuota: number;
  /** registry field → template control id (coTacid), null: not mapped */
  mapping: Record<string, number | null>;
};

export type ControlOption = { value: number; label: string };

/**
 * The template controls a registry field can fill: every enabled control but groups and
 * static texts (the server refuses those), a group's children labelled 「分组 / 控件」.
 */
export const mappableControls = (controls: TemplateControl[], group = ''): ControlOption[] =>
  controls.flatMap((c) => {
    if (c.dmType === DM_TYPE.group) return mappableControls(c.children ?? [], c.name);
    if (c.dmType === DM_TYPE.staticText) return [];
    return [{ value: c.coTacid, label: group ? `${group} / ${c.name}` : c.name }];
  });

export const toForm = (s: LeadSettings): LeadSettingsForm => ({
  providerKey: '',
  providerSecret: '',
  dailyQuota: s.dailyQuota,
  mapping: Object.fromEntries(s.mapping.map((m) => [m.field, m.coTacid])),
});

/** The body of settings/set: an empty key or secret is left out, so the stored one is kept; the mapping is sent whole. */
export const toBody = (v: LeadSettingsForm, fields: string[]): LeadSettingsBody => {
  const key = v.providerKey?.trim() ?? '';
  const secret = v.providerSecret?.trim() ?? '';
  return {
    ...(key ? { providerKey: key } : {}),
    ...(secret ? { providerSecret: secret } : {}),
    dailyQuota: v.dailyQuota,
    // only the mapped fields: the http client drops nulls, and a field left out is unmapped on the server
    mapping: fields.flatMap((field) => {
      const coTacid = v.mapping?.[field];
      return typeof coTacid === 'number' ? [{ field, coTacid }] : [];
    }),
  };
};

/** The controls the mapping points at that the template no longer offers (disabled or deleted). */
export const staleMappings = (s: LeadSettings, options: ControlOption[]): string[] =>
  s.mapping.filter((m) => m.coTacid !== null && !options.some((o) => o.value === m.coTacid)).map((m) => m.label);
