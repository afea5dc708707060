/**
 * 合同模板 editor: the body with insertable fields on the left, a live A4 preview on the right
 * (HTML at A4 proportions while typing; the server's PDF on demand), or an uploaded PDF with its
 * fields placed on its pages: dragged there and moved on the pages (PdfPlacement), or typed in
 * numbers (PdfFieldTable). The body (TemplateBodyEditor) and the right side (TemplatePreviewPane)
 * are their own files.
 */

import { PlusOutlined } from '@ant-design/icons';
import {
  CONTRACT_FIELDS,
  CONTRACT_LIMITS,
  type ContractTemplate,
  type ContractTemplateStoreBody,
  placedFieldError,
  type TemplateField,
  type UploadPdfResult,
} from '@crm/contracts';
import { App, Button, Drawer, Form, Input, Radio, Space, Switch, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/http';
import { uploadContractPdf, useStoreTemplate, useUpdateTemplate } from '../api';
import { type Box, NEW_BOX, placedAt } from '../placement';
import { DEFAULT_TEMPLATE_BODY, fieldsOf, insertAt, TABLE_KEYS } from '../templateBody';
import { PdfFieldTable, type TemplatePdf } from './PdfFieldTable';
import { FIELD_DRAG_TYPE } from './PdfPlacement';
import { TemplateBodyEditor } from './TemplateBodyEditor';
import { TemplatePreviewPane } from './TemplatePreviewPane';

type Props = {
  /** null: closed; 'new': a new template; else the template edited */
  template: ContractTemplate | 'new' | null;
  onClose: () => void;
};

type Values = { name: string; enabled: boolean; kind: 1 | 2 };

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
  const area = useRef<TextAreaRef | null>(null);
  const [body, setBody] = useState('');
  const [customs, setCustoms] = useState<TemplateField[]>([]);
  const [placed, setPlaced] = useState<TemplateField[]>([]);
  const [pdf, setPdf] = useState<TemplatePdf | null>(null);
  const [newLabel, setNewLabel] = useState('');
  const [bodyError, setBodyError] = useState<string | null>(null);
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

  const labelOf = (key: string) => STANDARD_LABEL[key] ?? customs.find((c) => c.key === key)?.label ?? key;

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
    else {
      const problem = placed.map(placedFieldError).find((m) => m !== '');
      if (problem) return message.error(problem);
    }
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

  /** A field added by a click: below the last one on page 1, inside the page. */
  const placeField = (key: string, label: string) =>
    setPlaced([...placed, placedAt({ key, label, font_size: 11 }, 1, { x: 72, y: 120 + placed.length * 24, ...NEW_BOX })]);

  const dropField = (f: { key: string; label: string }, page: number, box: Box) =>
    setPlaced((all) => [...all, placedAt({ ...f, font_size: 11 }, page, box)]);

  /** On a PDF template a field button is also dragged onto a page (the click still adds it). */
  const dragField = (e: DragEvent<HTMLElement>, key: string, label: string) => {
    e.dataTransfer.setData(FIELD_DRAG_TYPE, JSON.stringify({ key, label }));
    e.dataTransfer.effectAllowed = 'copy';
  };

  const fieldChips = (
    <Space size={[6, 6]} wrap>
      {[...CONTRACT_FIELDS, ...customs].map((f) => (
        <Button
          key={f.key}
          size="small"
          type={STANDARD_LABEL[f.key] ? 'default' : 'dashed'}
          draggable={kind === 2}
          onDragStart={(e) => dragField(e, f.key, f.label)}
          onClick={() => (kind === 1 ? insert(f.key) : placeField(f.key, f.label))}
        >
          {f.label}
        </Button>
      ))}
    </Space>
  );

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
          {/* a new button each time the drawer opens or closes: the spinner of the last save leaves with a
              motion, and when the drawer hid before it ended (a busy machine) the spinner stayed for good */}
          <Button
            key={isOpen ? 'open' : 'closed'}
            type="primary"
            loading={store.isPending || update.isPending}
            onClick={() => form.submit()}
          >
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
            {kind === 1 ? '点击在光标处插入；生成合同时自动填入订单数据' : '拖到右侧PDF页面上放置，或点击添加后填写位置'}
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
            <TemplateBodyEditor
              area={area}
              body={body}
              onChange={setBody}
              error={bodyError}
              labelOf={labelOf}
              unknownKeys={unknownKeys}
            />
          ) : (
            <PdfFieldTable pdf={pdf} onUpload={(file) => void onPdfPicked(file)} fields={placed} onChange={setPlaced} />
          )}
        </div>
        <TemplatePreviewPane
          kind={kind}
          title={title}
          body={body}
          customs={customs}
          bodyFields={bodyFields}
          pdf={pdf}
          placed={placed}
          onPlace={(i, f) => setPlaced((all) => all.map((p, j) => (j === i ? f : p)))}
          onDropNew={dropField}
          onPages={(pages) => setPdf((p) => (p ? { ...p, pages } : p))}
        />
      </div>
    </Drawer>
  );
};

export const templateKindLabel = (kind: number) => (kind === 2 ? '上传PDF' : '在线编辑');
