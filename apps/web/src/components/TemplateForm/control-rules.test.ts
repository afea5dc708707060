import { DM_TYPE } from '@crm/contracts';
import type { FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { controlRules } from './control-rules';

/** Runs the custom validators of a rule list (the declarative ones are antd's job). */
const runValidators = async (rules: FormRule[], value: unknown) => {
  for (const rule of rules) {
    if (typeof rule === 'object' && rule.validator) {
      await (rule.validator as (r: unknown, v: unknown) => Promise<void>)({}, value);
    }
  }
};

describe('controlRules (SPEC §5)', () => {
  it('required rules carry the kind message; dates are not checked as strings', () => {
    const date = controlRules({ name: '生日', dmType: DM_TYPE.date, dmMust: 1 });
    expect(date[0]).toEqual({ required: true, message: '请选择日期' });
    const multi = controlRules({ name: '产品', dmType: DM_TYPE.multiSelect, dmMust: 1 });
    expect(multi[0]).toMatchObject({ required: true, type: 'array', message: '请选择产品' });
    const text = controlRules({ name: '联系人', dmType: DM_TYPE.text, dmMust: 1 });
    expect(text[0]).toMatchObject({ required: true, whitespace: true, message: '联系人不能为空' });
    expect(controlRules({ name: '说明', dmType: DM_TYPE.staticText, dmMust: 1 })).toEqual([]);
  });

  it('phone accepts real-looking and masked numbers, refuses letters', async () => {
    const rules = controlRules({ name: '手机', dmType: DM_TYPE.phone, dmMust: 0 });
    for (const ok of ['13812345678', '010-12345678', '138****5678', '+86 138 1234 5678', '0571-88886666转123']) {
      await expect(runValidators(rules, ok)).resolves.toBeUndefined();
    }
    await expect(runValidators(rules, 'abc123')).rejects.toThrow('手机“abc123”不是有效的电话号码');
  });
});
