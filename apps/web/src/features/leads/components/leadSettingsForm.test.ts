import { DM_TYPE, type LeadSettings, type TemplateControl } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { mappableControls, staleMappings, toBody, toForm } from './leadSettingsForm';

const control = (id: number, dmType: number, extra: Partial<TemplateControl> = {}): TemplateControl => ({
  cbTacid: id,
  coTacid: id,
  cmAtid: 1,
  pid: 0,
  name: `控件${id}`,
  dmType,
  dmDesc: '',
  dmValue: '',
  ctrlList: [],
  dmMust: 0,
  isJudge: 0,
  isFollowShow: 0,
  isSearch: 0,
  sortNum: id,
  actionState: 1,
  children: [],
  ...extra,
});

const settings: LeadSettings = {
  providerKeyMasked: '********9f3a',
  hasProviderSecret: true,
  dailyQuota: 12,
  mapping: [
    { field: 'creditCode', label: '统一社会信用代码', coTacid: 3 },
    { field: 'address', label: '地址', coTacid: null },
    { field: 'scope', label: '经营范围', coTacid: 99 },
  ],
  lookupsToday: 0,
  lookupsTotal: 0,
};

describe('lead settings form', () => {
  it('offers every control but groups and static texts, a group child under its group name', () => {
    const controls = [
      control(1, DM_TYPE.text),
      control(2, DM_TYPE.staticText),
      control(4, DM_TYPE.group, { name: '工商信息', children: [control(3, DM_TYPE.text, { pid: 4, name: '信用代码' })] }),
    ];
    expect(mappableControls(controls)).toEqual([
      { value: 1, label: '控件1' },
      { value: 3, label: '工商信息 / 信用代码' },
    ]);
  });

  it('starts with empty key and secret and the stored quota and mapping', () => {
    expect(toForm(settings)).toEqual({
      providerKey: '',
      providerSecret: '',
      dailyQuota: 12,
      mapping: { creditCode: 3, address: null, scope: 99 },
    });
  });

  it('leaves an empty key or secret and the unmapped fields out of the body', () => {
    const fields = ['creditCode', 'address'];
    expect(toBody({ providerKey: '  ', providerSecret: '', dailyQuota: 5, mapping: { creditCode: 3 } }, fields)).toEqual({
      dailyQuota: 5,
      mapping: [{ field: 'creditCode', coTacid: 3 }],
    });
    expect(toBody({ providerKey: ' AK1 ', providerSecret: 'S2', dailyQuota: 0, mapping: {} }, [])).toEqual({
      providerKey: 'AK1',
      providerSecret: 'S2',
      dailyQuota: 0,
      mapping: [],
    });
  });

  it('names the fields mapped to a control the template no longer offers', () => {
    expect(staleMappings(settings, [{ value: 3, label: '信用代码' }])).toEqual(['经营范围']);
  });
});
