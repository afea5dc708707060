/**
 * Lead search (拓客, issue 28): the company registry, the five searches of SPEC §7
 * (`GET /api/frontend/customer/kqhk/{company,industry,advanced,map,batch/company}`), the company
 * card, industry templates, batch lookup, 转为客户, 加入任务, provider settings and own lists.
 * Split by subject; this file re-exports them so `./leads` keeps offering every lead name.
 */
export * from './leads-batch';
export * from './leads-company';
export * from './leads-crm';
export * from './leads-search';
export * from './leads-settings';
