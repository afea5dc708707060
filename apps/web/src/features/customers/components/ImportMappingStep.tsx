/** 导入客户 step 2: which column goes to the customer name or which template control, and what duplicates do. */
import type { ImportPreview, ImportStartBody } from '@crm/contracts';
import { Radio, Select, Space, Table, Typography } from 'antd';

export type Target = ImportStartBody['mapping'][number]['target'];
export type DuplicateMode = ImportStartBody['duplicateMode'];
/** Select value of a column left out of the import. */
const SKIP = 'skip';

type MappingRow = { column: number; header: string; samples: string[] };

/** Step 2: which column goes to the customer name or which template control. */
export const MappingStep = ({
  preview,
  targets,
  mapping,
  onMap,
  duplicateMode,
  onDuplicateMode,
}: {
  preview: ImportPreview;
  targets: { value: Target; label: string }[];
  mapping: Map<number, Target>;
  onMap: (column: number, target: Target | null) => void;
  duplicateMode: DuplicateMode;
  onDuplicateMode: (mode: DuplicateMode) => void;
}) => {
  const rows: MappingRow[] = preview.headers.map((header, column) => ({
    column,
    header: header || `第${column + 1}列`,
    samples: preview.sampleRows
      .map((r) => r[column] ?? '')
      .filter((v) => v !== '')
      .slice(0, 2),
  }));
  const used = new Set(mapping.values());
  return (
    <>
      <Typography.Paragraph>
        文件共 <Typography.Text strong>{preview.rowCount}</Typography.Text> 行数据，请确认每一列导入到哪个字段：
      </Typography.Paragraph>
      <Table<MappingRow>
        rowKey="column"
        size="small"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={rows}
        columns={[
          { title: '表格列', dataIndex: 'header', width: 160, ellipsis: true },
          {
            title: '示例数据',
            dataIndex: 'samples',
            ellipsis: true,
            render: (samples: string[]) =>
              samples.length ? samples.join('；') : <Typography.Text type="secondary">（空）</Typography.Text>,
          },
          {
            title: '导入到',
            key: 'target',
            width: 200,
            render: (_, row) => {
              const current = mapping.get(row.column);
              return (
                <Select<Target | typeof SKIP>
                  style={{ width: '100%' }}
                  value={current ?? SKIP}
                  showSearch={{ optionFilterProp: 'label' }}
                  onChange={(v) => onMap(row.column, v === SKIP ? null : v)}
                  options={[
                    { value: SKIP, label: '不导入' },
                    ...targets.map((t) => ({ ...t, disabled: t.value !== current && used.has(t.value) })),
                  ]}
                />
              );
            },
          },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Typography.Text>重复数据：</Typography.Text>
        <Radio.Group
          value={duplicateMode}
          onChange={(e) => onDuplicateMode(e.target.value)}
          options={[
            { value: 'skip', label: '跳过' },
            { value: 'overwrite', label: '覆盖' },
          ]}
        />
        <Typography.Text type="secondary">按模板中设置了查重的字段判断是否重复</Typography.Text>
      </Space>
    </>
  );
};
