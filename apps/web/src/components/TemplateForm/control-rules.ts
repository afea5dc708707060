import { CONTROL_LIMITS, DM_TYPE, type TemplateControl, UPLOAD_MAX_FILES } from '@crm/contracts';
import type { FormRule } from 'antd';
import { ARRAY_KINDS, INTEGER_PATTERN, maxLengthOf, NUMBER_PATTERN, requiredMessage } from './control-values';

/** Kinds whose form value is an object (a Dayjs date, the company's labelled value). */
const OBJECT_KINDS: readonly number[] = [DM_TYPE.date, DM_TYPE.datetime, DM_TYPE.company];

/** Characters a phone number may hold; a masked number (138****5678) comes back as it was shown. */
const PHONE_CHARS = /^[\d\s\-—+()（）*#]+(?:(?:转|分机|ext\.?|x)\s*\d{1,6})?$/i;

/**
 * Form rules of one control, mirroring the server's checks and messages (SPEC §5,
 * control-values.ts) so most mistakes are caught before the round trip.
 */
export const controlRules = (c: Pick<TemplateControl, 'name' | 'dmType' | 'dmMust'>): FormRule[] => {
  const rules: FormRule[] = [];
  if (c.dmMust === 1 && c.dmType !== DM_TYPE.staticText) {
    const message = requiredMessage(c);
    // A rule with `whitespace` checks the value is a string: only typed and option-text kinds get it.
    if (ARRAY_KINDS.includes(c.dmType)) rules.push({ required: true, type: 'array', min: 1, message });
    else if (OBJECT_KINDS.includes(c.dmType)) rules.push({ required: true, message });
    else rules.push({ required: true, whitespace: true, message });
  }
  const max = maxLengthOf(c.dmType);
  switch (c.dmType) {
    case DM_TYPE.text:
    case DM_TYPE.textarea:
    case DM_TYPE.group:
      rules.push({ max, message: `${c.name}最多${max}个字符` });
      break;
    case DM_TYPE.integer:
      rules.push({ max, message: `${c.name}最多${max}位` }, { pattern: INTEGER_PATTERN, message: `${c.name}必须是整数` });
      break;
    case DM_TYPE.number:
      rules.push({ max, message: `${c.name}最多${max}位` }, { pattern: NUMBER_PATTERN, message: `${c.name}必须是数字` });
      break;
    case DM_TYPE.phone:
      rules.push({ max: CONTROL_LIMITS.phone, message: `${c.name}最多${CONTROL_LIMITS.phone}位` });
      rules.push({
        validator: async (_, value: unknown) => {
          if (typeof value !== 'string' || value.trim() === '') return;
          const v = value.trim();
          if (!PHONE_CHARS.test(v) || v.replace(/\D/g, '').length + (v.match(/\*/g)?.length ?? 0) < 3) {
            throw new Error(`${c.name}“${v}”不是有效的电话号码`);
          }
        },
      });
      break;
    case DM_TYPE.file:
      rules.push({ type: 'array', max: UPLOAD_MAX_FILES, message: `${c.name}最多上传${UPLOAD_MAX_FILES}个文件` });
      break;
  }
  return rules;
};
