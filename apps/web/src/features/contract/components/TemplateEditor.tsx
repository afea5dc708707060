/**
 * 合同模板 editor: the body with insertable fields on the left, a live A4 preview on the right
 * (HTML at A4 proportions while typing; the server's PDF on demand), or an uploaded PDF with its
 * fields placed on its pages.
 */

import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  amountInCapitals,
  amountInFigures,
  CONTRACT_FIELDS,
  CONTRACT_LIMITS,
  type ContractTemplate,
  type ContractTemplateStoreBody,
  paymentTermsText,
  type TemplateField,
  type UploadPdfResult,
} from '@crm/contracts';
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/http';
import { useSession } from '../../../stores/session';
import { fetchTemplatePreview, uploadContractPdf, useContractRule, useStoreTemplate, useUpdateTemplate } from '../api';
import { DEFAULT_TEMPLATE_BODY, fieldsOf, insertAt, sampleTerms, TABLE_KEYS } from '../templateBody';
import { A4Preview } from './A4Preview';
import { PdfPages } from './PdfPages';

type Props = {
  /** null: closed; 'new': a new template; else the template edited */
  template: ContractTemplate | 'new' | null;
  onClose: () => void;
};

type Values = { name: string; enabled: boolean; kind: 1 | 2 };

const SAMPLE_AMOUNT = 12_345_600;
const STANDARD_LABEL: Record<string, string> = Object.fromEntries(CONTRACT_FIELDS.map((f) => [f.key, f.label]));

const nextCustomKey = (fields: TemplateField[]) => {
  const used = fields.map((f) => Number(/^custom_(\d+)$/.exec(f.key)?.[1] ?? 0));
  return `custom_${Math.max(0, ...used) + 1}`;
};

export const TemplateEditor = ({ template, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const store = useStoreTemplate();
  const update = useUpdateTemplate();
  const rule = useContractRule();
  const companyName = useSession((s) => s.userInfo?.companyName ?? '');
  const area = useRef<TextAreaRef | null>(null);
  const [body, setBody] = useState('');
  const [customs, setCustoms] = useState<TemplateField[]>([]);
  const [placed, setPlaced] = useState<TemplateField[]>([]);
  const [pdf, setPdf] = useState<{ id: number; url: string; name: string; pages: number } | null>(null);
  const [newLabel, setNewLabel] = useState('');
  const [bodyError, setBodyError] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [isPreviewing, setPreviewing] = useState(false);
  const title = Form.useWatch('name', form) ?? '';
  const kind = Form.useWatch('kind', form) ?? 1;
  const isOpen = template !== null;

  useEffect(() => {
    if (!isOpen) return;
    const t = template === 'new' ? null : template;
    form.setFieldsValue({ name: t?.name ?? '', enabled: t ? t.status === 0 : true, kind: t?.kind === 2 ? 2 : 1 });
    setBody(t ? t.body : DEFAULT_TEMPLATE_BODY);
    setCustoms((t?.fields ?? []).filter((f) => f.key.startsWith('custom_')));
    setPlaced(t?.kind === 2 ? t.fields : []);
    setPdf(t?.kind === 2 && t.pdf_file_id ? { id: t.pdf_file_id, url: t.pdf_url, name: '合同模板.pdf', pages: 0 } : null);
    setBodyError(null);
  }, [isOpen, template, form]);

  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const labelOf = (key: string) => STANDARD_LABEL[key] ?? customs.find((c) => c.key === key)?.label ?? key;

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
    ...Object.fromEntries(customs.map((c) => [c.key, `【${c.label}】`])),
  };

  const insert = (key: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? body.length;
    const end = el?.selectionEnd ?? start;
    const token = Object.values<string>(TABLE_KEYS).includes(key) ? `\n{{${key}}}\n` : `{{${key}}}`;
    const next = insertAt(body, token, start, end);
    setBody(next);
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const addCustom = () => {
    const label = newLabel.trim();
    if (!label) return message.warning('请输入自定义字段名称');
    if (label.length > CONTRACT_LIMITS.fieldLabel) return message.warning(`字段名称最多${CONTRACT_LIMITS.fieldLabel}个字符`);
    if (customs.some((c) => c.label === label) || Object.values(STANDARD_LABEL).includes(label))
      return message.warning('字段名称已存在');
    const field = { key: nextCustomKey(customs), label };
    setCustoms([...customs, field]);
    setNewLabel('');
    if (kind === 1) insert(field.key);
  };

  const unknownKeys = fieldsOf(body).filter((k) => !STANDARD_LABEL[k] && !customs.some((c) => c.key === k));

  const showServerPreview = async () => {
    setPreviewing(true);
    try {
      const url = await fetchTemplatePreview({ body, fields: bodyFields() });
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      setPreviewUrl(url);
    } catch {
      message.error('预览生成失败，请检查正文后重试');
    } finally {
      setPreviewing(false);
    }
  };

  const bodyFields = (): TemplateField[] =>
    fieldsOf(body)
      .filter((k) => STANDARD_LABEL[k] || customs.some((c) => c.key === k))
      .map((key) => ({ key, label: labelOf(key) }));

  const save = async (v: Values) => {
    if (v.kind === 1) {
      if (!body.trim()) return setBodyError('请输入合同正文');
      if (body.length > CONTRACT_LIMITS.body) return setBodyError(`正文最多${CONTRACT_LIMITS.body}个字符`);
      if (unknownKeys.length > 0) return setBodyError(`正文中有未定义的字段：${unknownKeys.join('、')}`);
    } else if (!pdf) return message.error('请上传合同PDF');
    setBodyError(null);
    const payload: ContractTemplateStoreBody = {
      name: v.name.trim(),
      kind: v.kind,
      body: v.kind === 1 ? body : '',
      pdf_file_id: v.kind === 2 ? pdf?.id : undefined,
      fields: v.kind === 1 ? bodyFields() : placed,
      sign_areas: [],
      status: v.enabled ? 0 : 1,
    };
    try {
      if (template === 'new') await store.mutateAsync(payload);
      else if (template) await update.mutateAsync({ ...payload, id: template.id });
    } catch {
      return;
    }
    message.success('添加/更新成功！');
    onClose();
  };

  const onPdfPicked = async (file: File) => {
    try {
      const res = await uploadContractPdf(file);
      setPdf({ id: res.id, url: res.url, name: res.name, pages: res.pages });
    } catch (err) {
      // SPEC §8: data.code 1 is a warning (shown by the http client) and the file is kept
      if (err instanceof ApiError && err.code === 1 && err.data) {
        const res = err.data as UploadPdfResult;
        if (res.id) setPdf({ id: res.id, url: res.url, name: res.name, pages: res.pages });
      }
    }
  };

  const fieldChips = (
    <Space size={[6, 6]} wrap>
      {CONTRACT_FIELDS.map((f) => (
        <Button key={f.key} size="small" onClick={() => (kind === 1 ? insert(f.key) : placeField(f.key, f.label))}>
          {f.label}
        </Button>
      ))}
      {customs.map((c) => (
        <Button key={c.key} size="small" type="dashed" onClick={() => (kind === 1 ? insert(c.key) : placeField(c.key, c.label))}>
          {c.label}
        </Button>
      ))}
    </Space>
  );

  const placeField = (key: string, label: string) =>
    setPlaced([...placed, { key, label, page: 1, x: 72, y: 120 + placed.length * 24, width: 200, height: 18, font_size: 11 }]);

  return (
    <Drawer
      title={template === 'new' ? '新建合同模板' : '编辑合同模板'}
      open={isOpen}
      onClose={onClose}
      width={1240}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={store.isPending || update.isPending} onClick={() => form.submit()}>
            保存
          </Button>
        </Space>
      }
    >
      <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Form form={form} layout="vertical" onFinish={save} initialValues={{ kind: 1, enabled: true }}>
            <Space align="start" size={16} style={{ display: 'flex' }}>
              <Form.Item
                label="模板名称"
                name="name"
                style={{ width: 320 }}
                rules={[
                  { required: true, whitespace: true, message: '请输入模板名称' },
                  { max: CONTRACT_LIMITS.name, message: `模板名称最多${CONTRACT_LIMITS.name}个字符` },
                ]}
              >
                <Input placeholder="如：软件服务合同" maxLength={CONTRACT_LIMITS.name} />
              </Form.Item>
              <Form.Item label="模板类型" name="kind">
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 1, label: '在线编辑' },
                    { value: 2, label: '上传PDF' },
                  ]}
                />
              </Form.Item>
              <Form.Item label="启用" name="enabled" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Space>
          </Form>
          <Typography.Text strong>插入字段</Typography.Text>
          <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
            {kind === 1 ? '点击在光标处插入；生成合同时自动填入订单数据' : '点击添加到字段位置表'}
          </Typography.Text>
          <div style={{ margin: '8px 0' }}>{fieldChips}</div>
          <Space.Compact style={{ width: 320, marginBottom: 12 }}>
            <Input
              placeholder="自定义字段名称，如：交付地点"
              value={newLabel}
              maxLength={CONTRACT_LIMITS.fieldLabel}
              onChange={(e) => setNewLabel(e.target.value)}
              onPressEnter={addCustom}
              aria-label="自定义字段名称"
            />
            <Button icon={<PlusOutlined />} onClick={addCustom}>
              添加字段
            </Button>
          </Space.Compact>
          {kind === 1 ? (
            <>
              <Input.TextArea
                ref={area}
                aria-label="合同正文"
                value={body}
                onChange={(e) => setBody(e.target.value)}
                autoSize={{ minRows: 18, maxRows: 26 }}
                maxLength={CONTRACT_LIMITS.body}
                style={{ fontFamily: 'monospace', fontSize: 13 }}
                status={bodyError ? 'error' : undefined}
              />
              {bodyError && <Typography.Text type="danger">{bodyError}</Typography.Text>}
              <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
                每行一个段落，以“# ”开头的行为标题；字段写作 {'{{字段}}'}，{'{{products}}'}、{'{{payment_terms}}'}{' '}
                单独一行时显示为产品明细表、付款条款表。正文中的字段：
                {fieldsOf(body).map((k) => (
                  <Tag key={k} color={unknownKeys.includes(k) ? 'red' : 'blue'} style={{ marginInlineStart: 4 }}>
                    {labelOf(k)}
                  </Tag>
                ))}
              </Typography.Paragraph>
            </>
          ) : (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Upload
                accept=".pdf,application/pdf"
                showUploadList={false}
                beforeUpload={(file) => {
                  void onPdfPicked(file);
                  return Upload.LIST_IGNORE;
                }}
              >
                <Button icon={<UploadOutlined />}>{pdf ? '重新上传PDF' : '上传合同PDF（A4）'}</Button>
              </Upload>
              {pdf && (
                <Typography.Text type="secondary">
                  已上传：{pdf.name}
                  {pdf.pages ? `，共${pdf.pages}页` : ''}
                </Typography.Text>
              )}
              <Table<TemplateField>
                size="small"
                rowKey={(f, i) => `${f.key}-${i}`}
                pagination={false}
                dataSource={placed}
                locale={{ emptyText: '点击上方字段添加到PDF上，并填写位置（单位：pt，从页面左上角起）' }}
                columns={[
                  { title: '字段', dataIndex: 'label', width: 120 },
                  ...(['page', 'x', 'y', 'width', 'font_size'] as const).map((k) => ({
                    title: { page: '页码', x: 'X', y: 'Y', width: '宽度', font_size: '字号' }[k],
                    key: k,
                    width: 90,
                    render: (_: unknown, f: TemplateField, i: number) => (
                      <InputNumber
                        size="small"
                        min={k === 'page' ? 1 : k === 'font_size' ? 6 : 0}
                        max={k === 'page' ? 200 : k === 'font_size' ? 36 : k === 'y' ? 841 : 595}
                        value={f[k]}
                        onChange={(val) => setPlaced(placed.map((p, j) => (j === i ? { ...p, [k]: val ?? undefined } : p)))}
                        style={{ width: '100%' }}
                      />
                    ),
                  })),
                  {
                    title: '',
                    key: 'del',
                    width: 50,
                    render: (_: unknown, __: TemplateField, i: number) => (
                      <Typography.Link type="danger" onClick={() => setPlaced(placed.filter((_p, j) => j !== i))}>
                        删除
                      </Typography.Link>
                    ),
                  },
                ]}
              />
            </Space>
          )}
        </div>
        <div style={{ width: 480, flex: 'none' }}>
          <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>A4 实时预览</Typography.Text>
            {kind === 1 && (
              <Button size="small" loading={isPreviewing} onClick={showServerPreview}>
                生成PDF预览
              </Button>
            )}
          </Space>
          <div style={{ background: '#e8eaed', padding: 10, maxHeight: 'calc(100vh - 150px)', overflow: 'auto' }}>
            {kind === 1 ? (
              <A4Preview
                title={title}
                body={body}
                samples={samples}
                productsKey={TABLE_KEYS.products}
                amount={SAMPLE_AMOUNT}
                width={460}
              />
            ) : pdf?.url ? (
              <PdfPages url={pdf.url} maxWidth={440} withToken />
            ) : (
              <Alert type="info" message="上传PDF后在此预览" />
            )}
          </div>
        </div>
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
    </Drawer>
  );
};

export const templateKindLabel = (kind: number) => (kind === 2 ? '上传PDF' : '在线编辑');
