/**
 * The right side of the template editor: for a body, the live A4 preview with sample values (and the
 * server's PDF on demand); for an uploaded PDF, its pages with the fields' boxes to drag.
 */
import { amountInCapitals, amountInFigures, paymentTermsText, type TemplateField } from '@crm/contracts';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useSession } from '../../../stores/session';
import { fetchTemplatePreview, useContractRule } from '../api';
import type { Box } from '../placement';
import { sampleTerms, TABLE_KEYS } from '../templateBody';
import { A4Preview } from './A4Preview';
import type { TemplatePdf } from './PdfFieldTable';
import { PdfPages } from './PdfPages';
import { PdfPlacement } from './PdfPlacement';

const SAMPLE_AMOUNT = 12_345_600;
/** The width of a page in the pane, px. */
const PAGE_WIDTH = 440;

type Props = {
  kind: number;
  title: string;
  body: string;
  /** the custom fields (their samples are their labels) */
  customs: TemplateField[];
  /** the body's fields, for the server's preview */
  bodyFields: () => TemplateField[];
  pdf: TemplatePdf | null;
  placed: TemplateField[];
  onPlace: (index: number, field: TemplateField) => void;
  onDropNew: (field: { key: string; label: string }, page: number, box: Box) => void;
  onPages: (count: number) => void;
};

export const TemplatePreviewPane = (p: Props) => {
  const { message } = App.useApp();
  const rule = useContractRule();
  const companyName = useSession((s) => s.userInfo?.companyName ?? '');
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [isPreviewing, setPreviewing] = useState(false);

  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const samples: Record<string, string> = {
    customer_name: '示例科技有限公司',
    contact_name: '王经理',
    contact_phone: '13800138000',
    amount_upper: amountInCapitals(SAMPLE_AMOUNT),
    amount_lower: amountInFigures(SAMPLE_AMOUNT),
    sign_date: dayjs().format('YYYY年M月D日'),
    service_period: `${dayjs().format('YYYY年M月D日')}至${dayjs().add(1, 'year').subtract(1, 'day').format('YYYY年M月D日')}`,
    bank_account: '开户名称：本公司；开户银行：招商银行深圳分行；账号：7559 **** **** 0001',
    company_name: companyName || '本公司',
    contract_no: rule.data?.example || 'HT-20260101-0001',
    payment_terms: paymentTermsText(sampleTerms(SAMPLE_AMOUNT)),
    ...Object.fromEntries(p.customs.map((c) => [c.key, `【${c.label}】`])),
  };

  const showServerPreview = async () => {
    setPreviewing(true);
    try {
      const url = await fetchTemplatePreview({ body: p.body, fields: p.bodyFields() });
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      setPreviewUrl(url);
    } catch {
      message.error('预览生成失败，请检查正文后重试');
    } finally {
      setPreviewing(false);
    }
  };

  return (
    <div style={{ width: 480, flex: 'none' }}>
      <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text strong>
          {p.kind === 1 ? 'A4 实时预览' : 'PDF页面（拖动字段框调整位置，拖动右下角调整大小）'}
        </Typography.Text>
        {p.kind === 1 && (
          <Button size="small" loading={isPreviewing} onClick={showServerPreview}>
            生成PDF预览
          </Button>
        )}
      </Space>
      <div style={{ background: '#e8eaed', padding: 10, maxHeight: 'calc(100vh - 150px)', overflow: 'auto' }}>
        {p.kind === 1 ? (
          <A4Preview
            title={p.title}
            body={p.body}
            samples={samples}
            productsKey={TABLE_KEYS.products}
            amount={SAMPLE_AMOUNT}
            width={460}
          />
        ) : p.pdf?.url ? (
          <PdfPlacement
            url={p.pdf.url}
            width={PAGE_WIDTH}
            fields={p.placed}
            onChange={p.onPlace}
            onDropNew={p.onDropNew}
            onPages={p.onPages}
          />
        ) : (
          <Alert type="info" message="上传PDF后在此预览" />
        )}
      </div>
      <Modal
        title="PDF预览（示例数据）"
        open={previewUrl !== null}
        onCancel={() => setPreviewUrl(null)}
        footer={null}
        width={760}
        destroyOnHidden
      >
        {previewUrl && (
          <div style={{ background: '#e8eaed', padding: 10, maxHeight: '70vh', overflow: 'auto' }}>
            <PdfPages url={previewUrl} maxWidth={680} />
          </div>
        )}
      </Modal>
    </div>
  );
};
