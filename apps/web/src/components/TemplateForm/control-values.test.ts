import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  clampNumeric,
  cleanNumeric,
  finishNumeric,
  fromStored,
  placeholderOf,
  requiredMessage,
  toSubmitted,
} from './control-values';

const control = (cbTacid: number, dmType: number, extra: Partial<TemplateControl> = {}): TemplateControl => ({
  cbTacid,
  coTacid: cbTacid,
  cmAtid: 1,
  pid: 0,
  name: `控件${cbTacid}`,
  dmType,
  dmDesc: '',
  dmValue: '',
  ctrlList: [],
  dmMust: 0,
  isJudge: 0,
  isFollowShow: 0,
  isSearch: 0,
  sortNum: 0,
  actionState: 0,
  children: [],
  ...extra,
});

const tree = [{ value: '1', label: '华东', children: [{ value: '2', label: '上海' }] }];

describe('template control values (SPEC §3 submitted control)', () => {
  it('required messages follow the kind, like the server', () => {
    expect(requiredMessage(control(1, DM_TYPE.text, { name: '联系人' }))).toBe('联系人不能为空');
    expect(requiredMessage(control(1, DM_TYPE.date))).toBe('请选择日期');
    expect(requiredMessage(control(1, DM_TYPE.address, { name: '地区' }))).toBe('请选择地区');
    expect(requiredMessage(control(1, DM_TYPE.file, { name: '合同' }))).toBe('请上传合同');
  });

  it('placeholder is dmDesc, else 请输入/请选择 and the name', () => {
    expect(placeholderOf(control(1, DM_TYPE.text, { name: '微信', dmDesc: '请输入微信号' }))).toBe('请输入微信号');
    expect(placeholderOf(control(1, DM_TYPE.text, { name: '微信' }))).toBe('请输入微信');
    expect(placeholderOf(control(1, DM_TYPE.select, { name: '行业' }))).toBe('请选择行业');
  });

  it('submits every value as strings, dates formatted, cascaders with label paths, groups with children', () => {
    const controls = [
      control(1, DM_TYPE.text),
      control(2, DM_TYPE.datetime),
      control(3, DM_TYPE.address),
      control(4, DM_TYPE.cascader, { ctrlList: tree }),
      control(5, DM_TYPE.group, { children: [control(6, DM_TYPE.integer, { pid: 5 })] }),
      control(7, DM_TYPE.staticText, { dmValue: '说明' }),
      control(8, DM_TYPE.tags),
      control(9, DM_TYPE.company),
      control(10, DM_TYPE.file),
      control(11, DM_TYPE.multiSelect, { dmValue: ['a', 'b'] }),
    ];
    const values = {
      '1': '  张三 ',
      '2': dayjs('2026-03-04 05:06:07'),
      '3': [110000, 110100],
      '4': ['1', '2'],
      '5': '分组文字',
      '6': '-12',
      '8': [{ value: 3, label: 'VIP' }],
      '9': { value: '42', label: '某公司' },
      '10': [{ id: 7, name: 'a.pdf' }],
      '11': ['a', 'b'],
    };
    expect(toSubmitted(values, controls)).toEqual([
      { cbTacid: 1, dmValue: ['张三'] },
      { cbTacid: 2, dmValue: ['2026-03-04 05:06'] },
      { cbTacid: 3, dmValue: ['110000', '110100'], dmValueText: ['北京市', '北京市'] },
      { cbTacid: 4, dmValue: ['1', '2'], dmValueText: ['华东', '上海'] },
      { cbTacid: 5, dmValue: ['分组文字'], children: [{ cbTacid: 6, dmValue: ['-12'] }] },
      { cbTacid: 8, dmValue: ['3'] },
      { cbTacid: 9, dmValue: ['42'] },
      { cbTacid: 10, dmValue: ['7'] },
      { cbTacid: 11, dmValue: ['a', 'b'] },
    ]);
  });

  it('empty values go as [] so an edit can clear them', () => {
    expect(toSubmitted({ '1': '   ' }, [control(1, DM_TYPE.text), control(2, DM_TYPE.date)])).toEqual([
      { cbTacid: 1, dmValue: [] },
      { cbTacid: 2, dmValue: [] },
    ]);
  });

  it('turns stored values back into form values, masked phones unchanged', () => {
    const controls = [
      control(1, DM_TYPE.phone),
      control(2, DM_TYPE.date),
      control(3, DM_TYPE.address),
      control(4, DM_TYPE.group, { children: [control(5, DM_TYPE.tags, { pid: 4 })] }),
      control(6, DM_TYPE.company),
    ];
    const stored = [
      { cbTacid: 1, name: '', dmType: 6, dmValue: ['138****5678'], dmValueText: ['138****5678'] },
      { cbTacid: 2, name: '', dmType: 4, dmValue: ['2026-01-02'], dmValueText: ['2026-01-02'] },
      { cbTacid: 3, name: '', dmType: 11, dmValue: ['110000'], dmValueText: ['北京市'] },
      { cbTacid: 5, name: '', dmType: 19, dmValue: ['9'], dmValueText: ['重点'] },
      { cbTacid: 6, name: '', dmType: 20, dmValue: ['42'], dmValueText: ['某公司'] },
    ];
    const values = fromStored(controls, stored);
    expect(values['1']).toBe('138****5678');
    expect(dayjs.isDayjs(values['2']) && (values['2'] as dayjs.Dayjs).format('YYYY-MM-DD')).toBe('2026-01-02');
    expect(values['3']).toEqual([110000]);
    expect(values['5']).toEqual([{ value: 9, label: '重点' }]);
    expect(values['6']).toEqual({ value: '42', label: '某公司' });
  });
});

describe('numeric input (SPEC §5)', () => {
  it('keeps digits, a leading minus and one dot for decimals', () => {
    expect(cleanNumeric('-12a3', false)).toBe('-123');
    expect(cleanNumeric('1.2.3', false)).toBe('123');
    expect(cleanNumeric('1.2.3', true)).toBe('1.23');
    expect(cleanNumeric('4-5', true)).toBe('45');
  });

  it('clamps to min/max (SPEC §5): max while typing, min once the input is left (issue 23)', () => {
    const b = { min: 10, max: 100 };
    expect(clampNumeric('150', b, false)).toBe('100');
    expect(clampNumeric('1', b, false)).toBe('1');
    expect(clampNumeric('1', b, true)).toBe('10');
    expect(clampNumeric('-5', { min: -3 }, true)).toBe('-3');
    expect(clampNumeric('99.5', b, true)).toBe('99.5');
    expect(clampNumeric('100.01', b, false)).toBe('100');
    expect(clampNumeric('', b, true)).toBe('');
    expect(clampNumeric('-', b, false)).toBe('-');
    expect(clampNumeric('123456789012345678901', {}, true)).toBe('123456789012345678901');
  });
  it('finishes a half-typed number on blur', () => {
    expect(finishNumeric('-')).toBe('');
    expect(finishNumeric('12.')).toBe('12');
    expect(finishNumeric('.5')).toBe('0.5');
    expect(finishNumeric('-.5')).toBe('-0.5');
  });
});
