import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { controlSearchFields, labelSelectOptions, toListFilters } from './listFilters';

const control = (cbTacid: number, dmType: number, name: string, dmValue: string[] = []): TemplateControl => ({
  cbTacid,
  coTacid: cbTacid,
  cmAtid: 1,
  pid: 0,
  name,
  dmType,
  dmDesc: '',
  dmValue,
  ctrlList: [],
  dmMust: 0,
  isJudge: 0,
  isFollowShow: 0,
  isSearch: 1,
  sortNum: 0,
  actionState: 0,
  children: [],
});

const controls = [
  control(1, DM_TYPE.text, '联系人'),
  control(2, DM_TYPE.phone, '手机'),
  control(3, DM_TYPE.address, '地区'),
  control(4, DM_TYPE.select, '行业', ['教育培训', '互联网']),
  control(5, DM_TYPE.number, '预计成交金额'),
  control(6, DM_TYPE.date, '签约日期'),
  control(7, DM_TYPE.tags, '标签'),
  control(8, DM_TYPE.file, '附件'),
];

describe('toListFilters (SearchBar values → customerListBody)', () => {
  it('maps the fixed filters, numbers as numbers and the contact count range to min/max', () => {
    expect(
      toListFilters(
        {
          name: '华为',
          contactPhone: '138',
          cmNid: 2,
          lastContactStatus: 0,
          followCmDid: 5,
          cmClids: [3, 4],
          createTime: ['2025-03-01 00:00:00', '2025-03-05 23:59:59'],
          exRecoveryTime: ['2025-04-01', '2025-04-02'],
          contactNum: { min: 0, max: 3 },
        },
        [],
      ),
    ).toEqual({
      name: '华为',
      contactPhone: '138',
      cmNid: 2,
      lastContactStatus: 0,
      followCmDid: 5,
      cmClids: [3, 4],
      createTime: ['2025-03-01 00:00:00', '2025-03-05 23:59:59'],
      exRecoveryTime: ['2025-04-01', '2025-04-02'],
      minContactNum: 0,
      maxContactNum: 3,
    });
  });
  it('maps template control filters by kind: text, region path, options, number and date ranges', () => {
    expect(
      toListFilters(
        {
          tc_2: '13800138000',
          tc_3: [440000, 440300],
          tc_4: ['互联网'],
          tc_5: { max: 5000 },
          tc_6: ['2025-01-01', '2025-01-31'],
          tc_7: [9],
        },
        controls,
      ).templateControls,
    ).toEqual([
      { cbTacid: 2, dmValue: ['13800138000'] },
      { cbTacid: 3, dmValue: ['440000', '440300'] },
      { cbTacid: 4, dmValue: ['互联网'] },
      { cbTacid: 5, dmValue: [], min: undefined, max: 5000 },
      { cbTacid: 6, dmValue: ['2025-01-01', '2025-01-31'] },
      { cbTacid: 7, dmValue: ['9'] },
    ]);
  });
  it('sends no templateControls when no control filter is set', () => {
    expect(toListFilters({}, controls)).toEqual({});
  });
});

describe('controlSearchFields', () => {
  it('turns isSearch controls into fields, skipping 联系人 (the fixed input) and kinds that cannot filter', () => {
    const fields = controlSearchFields(controls, []);
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['tc_2', 'text'],
      ['tc_3', 'cascader'],
      ['tc_4', 'select'],
      ['tc_5', 'numberRange'],
      ['tc_6', 'dateRange'],
    ]);
  });
  it('offers the tag control when tags exist', () => {
    const fields = controlSearchFields(controls, labelSelectOptions([{ cmClid: 9, pid: 0, name: '高意向' }]));
    expect(fields.find((f) => f.name === 'tc_7')?.kind).toBe('select');
  });
});

describe('labelSelectOptions', () => {
  it('groups tags under their group and keeps loose tags flat', () => {
    expect(
      labelSelectOptions([
        { cmClid: 1, pid: 0, name: '客户意向' },
        { cmClid: 2, pid: 1, name: '高意向' },
        { cmClid: 3, pid: 0, name: '独立标签' },
      ]),
    ).toEqual([
      { label: '客户意向', title: '客户意向', options: [{ value: 2, label: '高意向' }] },
      { value: 3, label: '独立标签' },
    ]);
  });
});
