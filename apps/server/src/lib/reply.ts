import type { Envelope } from '@crm/contracts';

/** The success envelope (DESIGN §4). */
export const ok = <T>(data: T, msg = '操作成功'): Envelope<T> => ({ code: 0, msg, data });
