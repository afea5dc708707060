/** What every private customer list (我的客户, 分配管理, 今日预约, 从未联系) starts with: its first filters and columns. */
import type { CustomerColumnKey } from './customerColumns';
import type { CustomerFilterKey } from './listFilters';

/** name, contact, phone, stage and tags: the first filters of each private list. */
export const BASE_FILTERS: readonly CustomerFilterKey[] = ['name', 'contactName', 'contactPhone', 'cmNid', 'cmClids'];

/** name, contact, phone, stage and tags: the first columns of each private list. */
export const BASE_COLUMNS: readonly CustomerColumnKey[] = ['name', 'contactName', 'contactPhone', 'stage', 'tags'];
