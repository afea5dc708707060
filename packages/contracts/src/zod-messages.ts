import { z } from 'zod';

/**
 * Chinese messages for zod's own checks, installed once for server and web (DESIGN §4: every
 * message a user may see is Chinese). Messages written in a contract (the SPEC §5 ones) win:
 * zod uses this map only for an issue whose schema gave no message of its own.
 */
type Issue = {
  code?: string;
  path?: PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: unknown[];
  keys?: string[];
  divisor?: number | bigint;
};

const TYPE_NAME: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '布尔值',
  array: '数组',
  object: '对象',
  date: '日期',
  null: '空值',
};

const NUMERIC_ORIGINS = new Set(['number', 'int', 'bigint', 'date']);

/** `templateControls.0.cbTacid` → `参数 templateControls.0.cbTacid ` ; the root gets no prefix. */
const fieldOf = (path: PropertyKey[] | undefined) =>
  path && path.length > 0 ? `参数 ${path.map((p) => String(p)).join('.')} ` : '';

/** One issue → one short Chinese sentence. */
export const zhIssueMessage = (issue: Issue): string => {
  const field = fieldOf(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined && 'input' in issue) return `${field}缺少必填项`;
      if (issue.expected === 'int') return `${field}应为整数`;
      return `${field}类型错误，应为${TYPE_NAME[issue.expected ?? ''] ?? issue.expected}`;
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `${field}最多${max}个字符`;
      if (issue.origin && NUMERIC_ORIGINS.has(issue.origin))
        return issue.inclusive ? `${field}不能大于${max}` : `${field}必须小于${max}`;
      return `${field}最多${max}项`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return min === '1' ? `${field}不能为空` : `${field}至少${min}个字符`;
      if (issue.origin && NUMERIC_ORIGINS.has(issue.origin))
        return issue.inclusive ? `${field}不能小于${min}` : `${field}必须大于${min}`;
      return min === '1' ? `${field}不能为空` : `${field}至少${min}项`;
    }
    case 'invalid_value':
      return `${field}取值无效，可选值：${(issue.values ?? []).map((v) => String(v)).join('、')}`;
    case 'invalid_format':
      return `${field}格式不正确`;
    case 'not_multiple_of':
      return `${field}必须是${String(issue.divisor)}的倍数`;
    case 'unrecognized_keys':
      return `${field}包含未知字段：${(issue.keys ?? []).join('、')}`;
    default:
      return `${field}取值无效`;
  }
};

z.config({ localeError: (issue) => zhIssueMessage(issue as Issue) });
