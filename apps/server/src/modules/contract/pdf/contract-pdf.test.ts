import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { PDFDocument } from 'pdf-lib';
import subsetFont from 'subset-font';
import { describe, expect, it } from 'vitest';
import { identityCidCharset } from './cff-charset';
import {
  A4,
  archiveContractPdf,
  type Block,
  type ContractPdfInput,
  certificateFingerprint,
  createCompanyCertificate,
  readSignatureSlots,
  renderContractPdf,
  sealPng,
  sealSvg,
  stampSignatures,
  stampVoid,
  unsupportedChars,
  verifyArchivedPdf,
} from './index';
import { wrapText } from './layout';

const hasPoppler = spawnSync('pdftotext', ['-v']).status === 0 && spawnSync('pdfsig', ['-v']).status === 0;
if (!hasPoppler) {
  console.warn(
    'contract-pdf tests: pdftotext/pdfsig (Debian poppler-utils) not installed — the PDF text and signature checks are SKIPPED',
  );
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-pdf-'));
let n = 0;
const save = (bytes: Uint8Array) => {
  const file = path.join(dir, `doc-${++n}.pdf`);
  writeFileSync(file, bytes);
  return file;
};
/** pdftotext of one page (or all), spaces removed so wrapped Chinese compares simply */
const text = (bytes: Uint8Array, page?: number, isRaw = false) => {
  const args = [...(page ? ['-f', String(page), '-l', String(page)] : []), ...(isRaw ? ['-raw'] : [])];
  return execFileSync('pdftotext', [...args, save(bytes), '-'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString('utf8')
    .replace(/\s+/g, '');
};
const pdfsig = (bytes: Uint8Array) => {
  const r = spawnSync('pdfsig', [save(bytes)], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
};

const SECRET = 'contract-pdf-test-secret-0123456789';
const COMPANY = '杭州云帆科技有限公司';

const products = (count: number) =>
  Array.from({ length: count }, (_, i) => [
    String(i + 1),
    `智能外呼坐席年度服务包第${i + 1}项（含语音识别、质检与话术配置，按座席计费）`,
    '套',
    String((i % 7) + 1),
    '¥1,200.00',
    `¥${((i % 7) + 1) * 1200}.00`,
  ]);

const contract = (rows: string[][], extra: Block[] = []): ContractPdfInput => ({
  title: '软件服务购销合同',
  number: 'HT-20261128-0007',
  companyName: COMPANY,
  body: [
    { kind: 'paragraph', text: '甲方（买方）：上海张江喆睿信息技术有限公司' },
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
        totals: [
          { label: '合计（小写）', value: '¥12,345.00' },
          { label: '合计（大写）', value: '壹万贰仟叁佰肆拾伍元整' },
        ],
      },
    },
    { kind: 'heading', text: '第二条　付款方式' },
    { kind: 'paragraph', isIndented: true, text: '甲方应于本合同签订之日起七个工作日内付清全部价款。' },
    ...extra,
  ],
  parties: [
    { role: '甲方', name: '上海张江喆睿信息技术有限公司', signer: 'customer', lines: [{ label: '联系人', value: '王小明' }] },
    { role: '乙方', name: COMPANY, signer: 'company', lines: [{ label: '联系人', value: '李四' }] },
  ],
});

const certificate = {
  contractNumber: 'HT-20261128-0007',
  contractTitle: '软件服务购销合同',
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
      userAgent: 'Mozilla/5.0 (iPhone) MicroMessenger/8.0.44 😀',
      phone: '138****8000',
    },
  ],
  auditTrail: ['2026-11-28 10:00:02 李四 创建合同', '2026-11-28 10:31:40 王小明 验证手机号并签名'],
};

describe('contract PDF rendering', () => {
  it('is A4 and keeps its signing slots', async () => {
    const bytes = await renderContractPdf(contract(products(3)));
    const doc = await PDFDocument.load(bytes);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(A4[0], 2);
      expect(page.getHeight()).toBeCloseTo(A4[1], 2);
      expect(page.getWidth()).toBeCloseTo(595.28, 2);
      expect(page.getHeight()).toBeCloseTo(841.89, 2);
    }
    const slots = await readSignatureSlots(bytes);
    expect(slots.map((s) => s.signer).sort()).toEqual(['company', 'customer']);
    expect(slots.every((s) => s.page === doc.getPageCount() - 1 && s.y > 0 && s.width > 0)).toBe(true);
  });

  it.skipIf(!hasPoppler)(
    'has real, extractable Chinese text (pdftotext)',
    async () => {
      const bytes = await renderContractPdf(contract(products(3)));
      const all = text(bytes);
      expect(all).toContain('软件服务购销合同');
      expect(all).toContain('合同编号：HT-20261128-0007');
      expect(all).toContain('上海张江喆睿信息技术有限公司'); // 喆 is outside GB2312: shipped as an extra
      expect(all).toContain('智能外呼坐席年度服务包第2项（含语音识别、质检与话术配置，按座席计费）');
      expect(all).toContain('¥12,345.00');
      expect(all).toContain('壹万贰仟叁佰肆拾伍元整');
      expect(all).toContain('第1页/共1页');
      expect(all).not.toMatch(/[\u25a1\ufffd]/); // no boxes, no replacement characters
    },
    60_000,
  );

  it.skipIf(!hasPoppler)(
    'breaks an 80-row products table across pages, header repeated, rows in order',
    async () => {
      const bytes = await renderContractPdf(contract(products(80)));
      const pages = (await PDFDocument.load(bytes)).getPageCount();
      expect(pages).toBeGreaterThanOrEqual(3);
      const seen: number[] = [];
      for (let p = 1; p <= pages; p++) {
        const t = text(bytes, p);
        // the header on every page of the table (in content order: pdftotext's layout splits the columns)
        if (p < pages) expect(text(bytes, p, true)).toContain('序号产品名称单位数量单价金额');
        expect(t).toContain(`第${p}页/共${pages}页`);
        for (const m of t.matchAll(/服务包第(\d+)项/g)) seen.push(Number(m[1]));
      }
      expect(seen).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect(text(bytes, pages)).toContain('合计（大写）');
    },
    60_000,
  );

  it('refuses characters the font cannot draw instead of dropping them', async () => {
    expect(unsupportedChars('合同😀𠀀A')).toEqual(['😀', '𠀀']);
    expect(unsupportedChars('合同喆¥①')).toEqual([]);
    await expect(renderContractPdf({ ...contract([]), title: '合同😀' })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHARS',
      chars: ['😀'],
    });
  });

  it('gives the embedded font CIDs equal to glyph ids (pdf-lib writes glyph ids; strict viewers map CIDs)', async () => {
    const base = readFileSync(path.join(import.meta.dirname, '../../../../assets/fonts/NotoSansSC-contract.otf'));
    const subset = await subsetFont(base, '购销合同甲方AB', { targetFormat: 'sfnt', noLayoutClosure: true });
    const charset = (b: Buffer) => fontkit.create(b)['CFF '].topDict.charset.glyphs as number[];
    expect(charset(subset)).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8]); // HarfBuzz keeps the source CIDs
    expect(charset(identityCidCharset(subset))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('wraps Chinese text: closing punctuation never starts a line, opening brackets never end one', () => {
    const lines = wrapText('甲方应于本合同签订之日起七个工作日内，将（全部）价款支付至乙方账户。', 10, 100);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(1)) expect(line[0]).not.toMatch(/[，。、）]/);
    for (const line of lines) expect(line.at(-1)).not.toBe('（');
    expect(lines.join('')).toBe('甲方应于本合同签订之日起七个工作日内，将（全部）价款支付至乙方账户。');
    expect(wrapText('短句', 10, 100)).toEqual(['短句']);
    expect(wrapText('一\n二', 10, 100)).toEqual(['一', '二']);
  });
});

describe('seals and signatures', () => {
  it('draws the seal as outlines (SVG without fonts) and a transparent PNG', async () => {
    const svg = sealSvg({ companyName: COMPANY, kind: '合同专用章' });
    expect(svg).toMatch(/^<svg /);
    expect(svg).not.toContain('<text');
    // ring + 10 name glyphs + star + 5 kind glyphs
    expect(svg.match(/<path /g)?.length).toBe(10 + 1 + 5);
    const png = await sealPng({ companyName: COMPANY, kind: '公章', size: 200 });
    expect(Buffer.from(png.subarray(1, 4)).toString('latin1')).toBe('PNG');
    expect(Buffer.from(png).readUInt32BE(16)).toBe(200); // width
    expect(png[25]).toBe(6); // colour type RGBA: transparent background
    expect(() => sealSvg({ companyName: '  ', kind: '公章' })).toThrow('印章名称不能为空');
  });

  it.skipIf(!hasPoppler)(
    'stamps the seal and the typed signature into the slots, and 已作废 on a discarded copy',
    async () => {
      const bytes = await renderContractPdf(contract(products(2)));
      const signed = await stampSignatures(bytes, {
        seal: { generated: { companyName: COMPANY, kind: '合同专用章' } },
        customer: { typedName: '王小明' },
        companySignedAt: '2026-11-28 10:20',
        customerSignedAt: '2026-11-28 10:31',
      });
      const t = text(signed);
      expect(t).toContain('签署时间：2026-11-2810:20');
      expect(t).toContain('签署时间：2026-11-2810:31');
      expect(t.split('王小明').length - 1).toBe(2); // the contact line and the typed signature
      await expect(stampSignatures(bytes, { customer: { png: new Uint8Array([1, 2, 3]) } })).rejects.toMatchObject({
        code: 'INVALID_IMAGE',
      });
      const voided = await stampVoid(signed, { reason: '客户取消采购', at: '2026-11-29 09:00' });
      expect(text(voided, 1, true)).toContain('已作废'); // turned 30°: read in content order
      expect(text(voided, 1)).toContain('作废原因：客户取消采购');
    },
    60_000,
  );
});

describe('archive and verification', () => {
  it('keeps the private key sealed: a wrong secret cannot open it, the PEM holds only the certificate', async () => {
    const key = await createCompanyCertificate({ companyName: COMPANY, creditCode: '91330106MA2B3C4D5E', keySecret: SECRET });
    expect(key.certPem).toContain('BEGIN CERTIFICATE');
    expect(key.certPem).not.toContain('PRIVATE KEY');
    expect(key.encryptedKey).not.toContain('PRIVATE');
    expect(certificateFingerprint(key.certPem)).toMatch(/^[0-9a-f]{64}$/);
    const pdf = await renderContractPdf(contract(products(1)));
    await expect(
      archiveContractPdf({ pdf, certificate, companyKey: key, keySecret: 'another-secret-0123456789' }),
    ).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });
    await expect(
      createCompanyCertificate({ companyName: COMPANY, creditCode: '91330106MA2B3C4D5E', keySecret: 'short' }),
    ).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });
  }, 60_000);

  it.skipIf(!hasPoppler)(
    'signs once: pdfsig and verifyArchivedPdf accept it (Chinese CN), a one-byte change or an appended update is refused',
    async () => {
      const key = await createCompanyCertificate({ companyName: COMPANY, creditCode: '91330106MA2B3C4D5E', keySecret: SECRET });
      const pdf = await stampSignatures(await renderContractPdf(contract(products(3))), {
        seal: { generated: { companyName: COMPANY, kind: '合同专用章' } },
        customer: { typedName: '王小明' },
      });
      const archived = await archiveContractPdf({ pdf, certificate, companyKey: key, keySecret: SECRET });
      expect(archived.sha256Before).toMatch(/^[0-9a-f]{64}$/);
      expect(archived.sha256After).not.toBe(archived.sha256Before);

      const report = pdfsig(archived.bytes);
      expect(report).toContain('Signer Certificate Common Name: 杭州云帆科技有限公司');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
      expect(report.match(/Signature #/g)?.length).toBe(1);

      const ok = await verifyArchivedPdf(archived.bytes);
      expect(ok).toMatchObject({ valid: true, reason: '', signerName: COMPANY, sha256: archived.sha256After });
      expect(ok.certificateSha256).toBe(certificateFingerprint(key.certPem));
      expect(Date.parse(ok.signedAt)).toBeGreaterThan(Date.now() - 600_000);

      // the certificate page: Chinese, with the hash before archiving; the unsupported emoji shown as ?
      const pages = (await PDFDocument.load(archived.bytes)).getPageCount();
      const cert = text(archived.bytes, pages);
      expect(cert).toContain('电子签署证书');
      expect(cert).toContain(`签署前文件SHA-256：${archived.sha256Before}`);
      expect(cert).toContain('IP地址：223.104.3.77');
      expect(cert).toContain('MicroMessenger/8.0.44?');
      expect(cert).toContain('王小明验证手机号并签名');

      const tampered = new Uint8Array(archived.bytes);
      tampered[12] ^= 0x01; // inside the binary comment of the header: still a readable PDF
      expect(pdfsig(tampered)).not.toContain('Signature is Valid');
      expect(await verifyArchivedPdf(tampered)).toMatchObject({ valid: false, reason: '文件在签名后被改动：数字签名校验失败' });

      const appended = new Uint8Array([...archived.bytes, ...Buffer.from('\n% appended\n')]);
      expect((await verifyArchivedPdf(appended)).reason).toBe('数字签名未覆盖整个文件：签名之后文件被追加或改动过');
      expect((await verifyArchivedPdf(pdf)).reason).toBe('文件没有数字签名，不是本平台归档的合同');
    },
    120_000,
  );
});
