import type { ProductBody } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';
import { createTemplate } from '../../modules/approvals/approval-templates.service';
import { createCategory, createProduct } from '../../modules/products/products.service';
import type { Db } from '../client';

const yuan = (v: number) => v * 1000;
const product = (p: Partial<ProductBody> & Pick<ProductBody, 'name' | 'code' | 'price'>): ProductBody => ({
  pcid: 0,
  remark: '',
  status: 1,
  cost: Math.round(p.price * 0.4),
  minimum_price: Math.round(p.price * 0.8),
  specifications: [],
  detailed: [],
  ...p,
});

/** Two-spec variants 版本 基础版/专业版 × 年限 1年/3年, priced from a yearly base. */
const editions = (basic: number, pro: number): Pick<ProductBody, 'specifications' | 'detailed'> => ({
  specifications: [
    { name: '版本', values: ['基础版', '专业版'] },
    { name: '年限', values: ['1年', '3年'] },
  ],
  detailed: [
    ['基础版', '1年', basic],
    ['基础版', '3年', basic * 2.5],
    ['专业版', '1年', pro],
    ['专业版', '3年', pro * 2.5],
  ].map(([edition, years, price]) => ({
    values: [edition as string, years as string],
    price: yuan(price as number),
    cost: yuan(Math.round((price as number) * 0.3)),
    minimum_price: yuan(Math.round((price as number) * 0.85)),
  })),
});

/**
 * Demo catalogue for a telecom/SaaS sales team (issue 13): software with editions and terms,
 * numbers and minutes, hardware and services; one order approval flow with a free approver
 * node (the submitter picks 1–3) and a CC node to the admin.
 */
export const seedDemoOrders = async (db: Db, admin: Actor, supervisorId: number) => {
  const software = await createCategory(db, admin, { pid: 0, name: '软件服务', sortNum: 1 });
  const telecom = await createCategory(db, admin, { pid: 0, name: '通信资源', sortNum: 2 });
  const numbers = await createCategory(db, admin, { pid: telecom, name: '号码', sortNum: 1 });
  const hardware = await createCategory(db, admin, { pid: 0, name: '硬件设备', sortNum: 3 });
  const services = await createCategory(db, admin, { pid: 0, name: '实施服务', sortNum: 4 });
  const items: ProductBody[] = [
    product({
      pcid: software,
      name: '云呼CRM系统',
      code: 'CRM-001',
      price: yuan(3600),
      remark: '按坐席计费，含客户管理、公海、跟进',
      ...editions(3600, 6800),
    }),
    product({
      pcid: software,
      name: 'AI外呼机器人',
      code: 'AI-001',
      price: yuan(9800),
      remark: '单个机器人并发10路',
      ...editions(9800, 16800),
    }),
    product({ pcid: software, name: '智能质检模块', code: 'QC-001', price: yuan(2400), remark: '通话录音自动质检' }),
    product({ pcid: numbers, name: '外呼线路（月租）', code: 'LINE-001', price: yuan(50), remark: '每条线路每月' }),
    product({ pcid: numbers, name: '400号码', code: 'NUM-400', price: yuan(1200), remark: '年费，含100分钟' }),
    product({ pcid: telecom, name: '通话分钟包（1万分钟）', code: 'MIN-10K', price: yuan(800), minimum_price: yuan(700) }),
    product({
      pcid: hardware,
      name: 'IP话机 T31P',
      code: 'HW-T31P',
      price: yuan(380),
      cost: yuan(260),
      minimum_price: yuan(320),
    }),
    product({ pcid: hardware, name: '坐席耳麦', code: 'HW-H01', price: yuan(160), cost: yuan(70), minimum_price: yuan(120) }),
    product({ pcid: services, name: '上门实施培训', code: 'SVC-001', price: yuan(2000), remark: '每人天' }),
    product({ pcid: services, name: '数据迁移服务', code: 'SVC-002', price: yuan(3000), status: 0, remark: '暂停销售' }),
  ];
  for (const p of items) await createProduct(db, admin, p);
  await createTemplate(db, admin, {
    name: '订单审批',
    isOrder: 1,
    actionState: 0,
    controls: [{ name: '审批说明', dmType: 1, dmDesc: '请填写折扣原因等说明', dmValue: [], dmMust: 0 }],
    nodes: [
      { name: '主管审批', type: 0, mode: 1, staffIds: [] },
      { name: '抄送管理员', type: 1, mode: 1, staffIds: [admin.staffId] },
    ],
  });
  await createTemplate(db, admin, {
    name: '大额订单审批',
    isOrder: 1,
    actionState: 0,
    controls: [],
    nodes: [
      { name: '销售主管', type: 0, mode: 1, staffIds: [supervisorId] },
      { name: '财务与总经理会签', type: 0, mode: 2, staffIds: [] },
      { name: '抄送管理员', type: 1, mode: 1, staffIds: [admin.staffId] },
    ],
  });
};
