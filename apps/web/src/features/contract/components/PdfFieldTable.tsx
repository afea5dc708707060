/**
 * An uploaded PDF template's side of the editor: the upload, and the table of its placed fields with
 * their page and box in numbers (pt from the page's top-left). The numbers follow the boxes dragged
 * on the pages, and are the keyboard's way to place a field.
 */
import { UploadOutlined } from '@ant-design/icons';
import { CONTRACT_PAGE, placedFieldError, type TemplateField } from '@crm/contracts';
import { Button, InputNumber, Space, Table, Typography, Upload } from 'antd';

export type TemplatePdf = { id: number; url: string; name: string; pages: number };

type Props = {
  pdf: TemplatePdf | null;
  onUpload: (file: File) => void;
  fields: TemplateField[];
  onChange: (fields: TemplateField[]) => void;
};

const COLUMNS = [
  { key: 'page', title: '页码' },
  { key: 'x', title: 'X' },
  { key: 'y', title: 'Y' },
  { key: 'width', title: '宽度' },
  { key: 'height', title: '高度' },
  { key: 'font_size', title: '字号' },
] as const;

type Column = (typeof COLUMNS)[number]['key'];

/** What each number may be (as the server's schema; the page within the uploaded PDF's pages). */
const rangeOf = (k: Column, pages: number): [number, number] => {
  const ranges: Record<Column, [number, number]> = {
    page: [1, pages || 200],
    x: [0, CONTRACT_PAGE.width],
    y: [0, CONTRACT_PAGE.height],
    width: [1, CONTRACT_PAGE.width],
    height: [1, CONTRACT_PAGE.height],
    font_size: [6, 36],
  };
  return ranges[k];
};

export const PdfFieldTable = ({ pdf, onUpload, fields, onChange }: Props) => {
  const problem = fields.map(placedFieldError).find((m) => m !== '');
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Upload
        accept=".pdf,application/pdf"
        showUploadList={false}
        beforeUpload={(file) => {
          onUpload(file);
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
        dataSource={fields}
        locale={{ emptyText: '把上方字段拖到右侧PDF页面上（或点击添加后填写位置，单位：pt，从页面左上角起）' }}
        columns={[
          { title: '字段', dataIndex: 'label', width: 110 },
          ...COLUMNS.map(({ key: k, title }) => ({
            title,
            key: k,
            width: 78,
            render: (_: unknown, f: TemplateField, i: number) => {
              const [min, max] = rangeOf(k, pdf?.pages ?? 0);
              return (
                <InputNumber
                  size="small"
                  min={min}
                  max={max}
                  precision={k === 'page' ? 0 : undefined}
                  value={f[k]}
                  aria-label={`${f.label} ${title}`}
                  onChange={(val) => onChange(fields.map((p, j) => (j === i ? { ...p, [k]: val ?? undefined } : p)))}
                  style={{ width: '100%' }}
                />
              );
            },
          })),
          {
            title: '',
            key: 'del',
            width: 50,
            render: (_: unknown, __: TemplateField, i: number) => (
              <Typography.Link type="danger" onClick={() => onChange(fields.filter((_p, j) => j !== i))}>
                删除
              </Typography.Link>
            ),
          },
        ]}
      />
      {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
    </Space>
  );
};
