/**
 * Contract PDFs (issue 26): render a 3-page contract, stamp seal + signature, archive (flatten + certificate
 * page + one PAdES signature), verify. Library calls in-process, no database.
 *
 *   npx tsx bench/contract-pdf.ts [runs=30]
 */
import {
  archiveContractPdf,
  type ContractPdfInput,
  createCompanyCertificate,
  renderContractPdf,
  stampSignatures,
  verifyArchivedPdf,
} from '../apps/server/src/modules/contract/pdf';
import { summarise } from './lib';

const runs = Number(process.argv[2] ?? 30);
const COMPANY = '杭州云帆科技有限公司';
const SECRET = 'bench-contract-key-secret-0123456789';

const rows = Array.from({ length: 36 }, (_, i) => [
  String(i + 1),
  `智能外呼坐席年度服务包第${i + 1}项（含语音识别、质检与话术配置）`,
  '套',
  String((i % 7) + 1),
  '¥1,200.00',
  `¥${((i % 7) + 1) * 1200}.00`,
]);
const clause = (k: number) =>
  `第${k}条约定：双方应本着诚实信用的原则履行本合同，任何一方不得擅自变更或解除合同；因不可抗力不能履行的，应及时通知对方并在合理期限内提供证明。`;
/** a different customer per run: new characters each time, so the per-character-set subset cache misses */
const CUSTOMERS = [
  '上海张江喆睿信息技术有限公司',
  '成都蜀锦鹭岛数码科技有限公司',
  '哈尔滨冰轮霁雪软件有限公司',
  '厦门鼓浪琴屿网络有限公司',
  '乌鲁木齐天山雪莲贸易有限公司',
  '呼和浩特敕勒川牧业有限公司',
  '拉萨雅砻唐卡文化有限公司',
  '桂林漓江澄碧旅游有限公司',
  '潍坊鸢都纸鸢工艺有限公司',
  '景德镇瓷都釉彩陶艺有限公司',
];
const SIGNERS = ['王小明', '赵铁柱', '钱多多', '孙悟净', '李翠花', '周晓燕', '吴彦霖', '郑秋菊', '冯骥跃', '陈皓骞'];
const baseInput: ContractPdfInput = {
  title: '软件服务购销合同',
  number: 'HT-20261128-0001',
  companyName: COMPANY,
  body: [
    { kind: 'paragraph', text: `甲方（买方）：${CUSTOMERS[0]}\n乙方（卖方）：${COMPANY}` },
    { kind: 'heading', text: '第一条　产品明细' },
    {
      kind: 'table',
      table: {
        columns: [
          { title: '序号', width: 1, align: 'center' },
          { title: '产品名称', width: 5 },
          { title: '单位', width: 1 },
          { title: '数量', width: 1, align: 'right' },
          { title: '单价', width: 2, align: 'right' },
          { title: '金额', width: 2, align: 'right' },
        ],
        rows,
        totals: [{ label: '合计（大写）', value: '壹拾伍万壹仟贰佰元整' }],
      },
    },
    ...Array.from({ length: 8 }, (_, k) => ({ kind: 'paragraph' as const, isIndented: true, text: clause(k + 2) })),
  ],
  parties: [
    { role: '甲方', name: CUSTOMERS[0], signer: 'customer', lines: [{ label: '联系人', value: SIGNERS[0] }] },
    { role: '乙方', name: COMPANY, signer: 'company', lines: [{ label: '联系人', value: '李四' }] },
  ],
};
const certificate = {
  contractNumber: baseInput.number,
  contractTitle: baseInput.title,
  companyName: COMPANY,
  archivedAt: '2026-11-28 10:40:00',
  signers: [
    {
      role: '乙方',
      name: COMPANY,
      method: '平台自动盖章',
      signedAt: '2026-11-28 10:20:11',
      ip: '10.0.0.8',
      userAgent: 'Mozilla/5.0 Chrome/131',
    },
    {
      role: '甲方',
      name: '王小明',
      method: '短信验证码 + 手写签名',
      signedAt: '2026-11-28 10:31:40',
      ip: '223.104.3.77',
      userAgent: 'Mozilla/5.0 (iPhone) Mobile',
    },
  ],
  auditTrail: Array.from({ length: 12 }, (_, i) => `2026-11-28 10:${String(i).padStart(2, '0')}:00 李四 操作 ${i + 1}`),
};

/** CPU milliseconds (user + system) of each step, next to the wall clock: on a shared, loaded machine the wall
 * clock mostly measures the wait for a core, the CPU time what the step costs. */
const cpu: Record<string, number[]> = { render: [], stamp: [], archive: [], verify: [] };
const time = async <T>(f: () => Promise<T>, step?: string): Promise<[number, T]> => {
  const t = performance.now();
  const c = process.cpuUsage();
  const r = await f();
  const used = process.cpuUsage(c);
  if (step) cpu[step].push((used.user + used.system) / 1000);
  return [performance.now() - t, r];
};

const key = await createCompanyCertificate({ companyName: COMPANY, creditCode: '91330106MA2B3C4D5E', keySecret: SECRET });
/** customer i % 10 with contact ⌊i / 10⌋ % 10: every run up to 100 has its own character set */
const signerFor = (i: number) => SIGNERS[Math.floor(i / CUSTOMERS.length) % SIGNERS.length];
/** run i's contract: its customer, contact and number */
const contractFor = (i: number): ContractPdfInput => {
  const customer = CUSTOMERS[i % CUSTOMERS.length];
  const who = signerFor(i);
  return {
    ...baseInput,
    number: `HT-20261128-${String(i + 1).padStart(4, '0')}`,
    body: baseInput.body.map((b, k) =>
      k === 0 ? { kind: 'paragraph', text: `甲方（买方）：${customer}\n乙方（卖方）：${COMPANY}` } : b,
    ),
    parties: baseInput.parties.map((p) =>
      p.signer === 'customer' ? { ...p, name: customer, lines: [{ label: '联系人', value: who }] } : p,
    ),
  };
};
const [coldMs, first] = await time(() => renderContractPdf(contractFor(runs)));
const { PDFDocument } = await import('pdf-lib');
const pages = (await PDFDocument.load(first)).getPageCount();
const render: number[] = [];
const stamp: number[] = [];
const archive: number[] = [];
const verify: number[] = [];
let size = { pdf: 0, archived: 0 };
for (let i = 0; i < runs; i++) {
  const who = signerFor(i);
  const [r, pdf] = await time(() => renderContractPdf(contractFor(i)), 'render');
  const [s, signed] = await time(
    () =>
      stampSignatures(pdf, {
        seal: { generated: { companyName: COMPANY, kind: '合同专用章' } },
        customer: { typedName: who },
        companySignedAt: '2026-11-28 10:20:11',
        customerSignedAt: '2026-11-28 10:31:40',
      }),
    'stamp',
  );
  const [a, archived] = await time(
    () =>
      archiveContractPdf({
        pdf: signed,
        certificate: { ...certificate, signers: certificate.signers.map((g) => (g.role === '甲方' ? { ...g, name: who } : g)) },
        companyKey: key,
        keySecret: SECRET,
      }),
    'archive',
  );
  const [v, result] = await time(() => verifyArchivedPdf(archived.bytes), 'verify');
  if (!result.valid) throw new Error(`archive not valid: ${result.reason}`);
  render.push(r);
  stamp.push(s);
  archive.push(a);
  verify.push(v);
  size = { pdf: pdf.length, archived: archived.bytes.length };
}
const row = (name: string, ms: number[], step: string) => {
  const s = summarise(ms);
  const c = summarise(cpu[step]);
  console.log(
    `${name.padEnd(34)} n=${s.n}  p50 ${s.p50.toFixed(0)} ms  p95 ${s.p95.toFixed(0)} ms  max ${s.max.toFixed(0)} ms` +
      `  | cpu p50 ${c.p50.toFixed(0)} ms  p95 ${c.p95.toFixed(0)} ms`,
  );
};
console.log(`contract: ${pages} pages, ${Math.round(size.pdf / 1024)} KiB; archived ${Math.round(size.archived / 1024)} KiB`);
console.log(`first render (font + HarfBuzz load): ${coldMs.toFixed(0)} ms`);
row('render 3-page contract', render, 'render');
row('stamp seal + signature', stamp, 'stamp');
row('archive (certificate page + PAdES)', archive, 'archive');
row('verify', verify, 'verify');
console.log(
  `rss ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
