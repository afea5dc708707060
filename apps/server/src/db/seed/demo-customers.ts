import { DM_TYPE } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';
import { ensureTemplate, insertControlRow } from '../../modules/customers/customer-templates.service';
import { createCustomer } from '../../modules/customers/customers.service';
import type { Db } from '../client';
import { labels, stages } from '../schema';

/** The demo company's customer form (issue 3: a realistic template). */
const CONTROLS = [
  { name: '联系人', dmType: DM_TYPE.text, dmDesc: '请输入联系人姓名', dmMust: 1, isFollowShow: 1, isSearch: 1 },
  { name: '手机', dmType: DM_TYPE.phone, dmDesc: '请输入手机号', dmMust: 1, isJudge: 1, isSearch: 1 },
  { name: '座机', dmType: DM_TYPE.phone, dmDesc: '如 010-12345678', isSearch: 1 },
  { name: '微信', dmType: DM_TYPE.text, dmDesc: '请输入微信号' },
  { name: '地区', dmType: DM_TYPE.address, dmDesc: '请选择省/市/区', isSearch: 1 },
  {
    name: '行业',
    dmType: DM_TYPE.select,
    options: ['教育培训', '互联网', '制造业', '金融保险', '房产家居', '医疗健康', '零售电商', '其他'],
    isSearch: 1,
  },
  { name: '客户来源', dmType: DM_TYPE.select, options: ['电话营销', '网络推广', '老客户介绍', '展会', '自主开拓'], isSearch: 1 },
  {
    name: '客户级别',
    dmType: DM_TYPE.select,
    options: ['A（重点客户）', 'B（意向客户）', 'C（一般客户）', 'D（无意向）'],
    isFollowShow: 1,
    isSearch: 1,
  },
  {
    name: '意向产品',
    dmType: DM_TYPE.multiSelect,
    options: ['云外呼', 'AI外呼', '电销CRM', '号码认证'],
    isFollowShow: 1,
    isSearch: 1,
  },
  { name: '预计成交金额', dmType: DM_TYPE.number, dmDesc: '单位：元', isSearch: 1 },
  { name: '备注', dmType: DM_TYPE.textarea, dmDesc: '客户的其他情况' },
] as const;

const STAGES = ['初步接触', '需求确认', '方案报价', '商务谈判', '成交', '流失'];
const LABEL_GROUPS: [string, string[]][] = [
  ['客户意向', ['高意向', '中意向', '低意向']],
  ['客户特征', ['决策人', '价格敏感', '老客户转介绍']],
];

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高'.split('');
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '强',
  '磊',
  '洋',
  '艳',
  '勇',
  '军',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '建华',
  '晓东',
  '海燕',
];
const COMPANIES = [
  '华信',
  '恒通',
  '瑞丰',
  '天成',
  '博远',
  '鼎盛',
  '汇智',
  '启航',
  '安达',
  '宏图',
  '卓越',
  '诚信',
  '星河',
  '明德',
  '远景',
];
const SUFFIX = ['科技有限公司', '教育咨询有限公司', '贸易有限公司', '网络科技有限公司', '实业有限公司', '信息技术有限公司'];
const CITIES: [string, string, string][] = [
  ['110000', '110100', '110105'],
  ['310000', '310100', '310115'],
  ['440000', '440300', '440305'],
  ['440000', '440100', '440106'],
  ['330000', '330100', '330106'],
  ['510000', '510100', '510107'],
  ['420000', '420100', '420106'],
  ['320000', '320500', '320505'],
];

/** Template, stages, tags and a few dozen customers spread over the demo sales staff. */
export const seedDemoCustomers = async (db: Db, tenantId: number, owners: Actor[]) => {
  const tpl = await ensureTemplate(db, tenantId);
  const ids: number[] = [];
  for (const [i, c] of CONTROLS.entries()) {
    ids.push(
      await insertControlRow(db, {
        tenantId,
        templateId: tpl.id,
        pid: 0,
        name: c.name,
        dmType: c.dmType,
        dmDesc: 'dmDesc' in c ? c.dmDesc : '',
        options: 'options' in c ? [...c.options] : [],
        dmMust: 'dmMust' in c ? c.dmMust : 0,
        isJudge: 'isJudge' in c ? c.isJudge : 0,
        isFollowShow: 'isFollowShow' in c ? c.isFollowShow : 0,
        isSearch: 'isSearch' in c ? c.isSearch : 0,
        sortNum: (i + 1) * 10,
      }),
    );
  }
  await db.insert(stages).values(STAGES.map((name, i) => ({ tenantId, name, sortNum: i + 1 })));
  for (const [gi, [group, names]] of LABEL_GROUPS.entries()) {
    const [g] = await db
      .insert(labels)
      .values({ tenantId, pid: 0, name: group, sortNum: gi + 1 })
      .returning({ id: labels.id });
    await db.insert(labels).values(names.map((name, i) => ({ tenantId, pid: g.id, name, sortNum: i + 1 })));
  }
  const [contact, mobile, , wechat, region, industry, source, level, product, amount] = ids;
  const industries = CONTROLS[5].options;
  let n = 0;
  for (const owner of owners) {
    for (let k = 0; k < 12; k++, n++) {
      const person = SURNAMES[n % SURNAMES.length] + GIVEN[(n * 7) % GIVEN.length];
      const city = CITIES[n % CITIES.length];
      await createCustomer(db, owner, {
        name: `${['北京', '上海', '深圳', '广州', '杭州', '成都', '武汉', '苏州'][n % 8]}${COMPANIES[n % COMPANIES.length]}${SUFFIX[n % SUFFIX.length]}`,
        templateControls: [
          { cbTacid: contact, dmValue: [person] },
          { cbTacid: mobile, dmValue: [`13${(n % 9) + 1}${String(10_000_000 + n * 7_919).slice(-8)}`] },
          { cbTacid: wechat, dmValue: [`wx_${n}${k}`] },
          { cbTacid: region, dmValue: [...city] },
          { cbTacid: industry, dmValue: [industries[n % industries.length]] },
          { cbTacid: source, dmValue: [CONTROLS[6].options[n % 5]] },
          { cbTacid: level, dmValue: [CONTROLS[7].options[n % 4]] },
          { cbTacid: product, dmValue: [CONTROLS[8].options[n % 4]] },
          { cbTacid: amount, dmValue: [String(((n * 37) % 50) * 1000 + 5000)] },
        ],
      });
    }
  }
};
