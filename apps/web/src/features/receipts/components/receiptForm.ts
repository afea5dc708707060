import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { yuanRules } from '../../../components/YuanInput';

/** SPEC §9: an amount of at most 999999999 yuan with 2 decimals; 请输入金额 when empty. */
export const amountRules: Rule[] = [...yuanRules('金额'), { pattern: /^\d+(\.\d{1,2})?$/, message: '金额最多2位小数' }];

export const remarkRules: Rule[] = [{ max: 50, message: '备注最多50个字符' }];

export const toDay = (d: Dayjs) => d.format('YYYY-MM-DD');
export const fromDay = (s: string) => (s ? dayjs(s) : undefined);
