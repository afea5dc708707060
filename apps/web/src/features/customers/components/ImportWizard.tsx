import { InboxOutlined } from '@ant-design/icons';
import { DM_TYPE, IMPORT_MAX_ROWS, type ImportPreview, type ImportStartBody, type TemplateControl } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Col,
  Modal,
  Progress,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Statistic,
  Steps,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { enabledControls } from '../../../components/TemplateForm';
import { useButtonLock } from '../../../components/useButtonLock';
import { useJob } from '../../../components/useJob';
import { customerListKeys, IMPORT_TEMPLATE_URL, useImportPreview, useStartImport } from '../api';
import { useTemplateInfo } from '../templates-api';
import { importProgressView } from './importProgress';

type Target = ImportStartBody['mapping'][number]['target'];
type DuplicateMode = ImportStartBody['duplicateMode'];
/** Select value of a column left out of the import. */
const SKIP = 'skip';

const flatten = (controls: TemplateControl[]): TemplateControl[] => controls.flatMap((c) => [c, ...flatten(c.children ?? [])]);
/** Kinds an import column cannot fill. */
const NOT_IMPORTABLE: readonly number[] = [DM_TYPE.staticText, DM_TYPE.group];

const isXlsx = (file: File) => file.name.toLowerCase().endsWith('.xlsx');

type MappingRow = { column: number; header: string; samples: string[] };

/** Step 2: which column goes to the customer name or which template control. */
const MappingStep = ({
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

/** Step 3: progress of the import job, then its report. */
const ResultStep = ({ jobId }: { jobId: string }) => {
  const job = useJob(jobId);
  const client = useQueryClient();
  const info = job.data;
  const isDone = info?.status === 'done';
  useEffect(() => {
    if (isDone) void client.invalidateQueries({ queryKey: customerListKeys.all });
  }, [isDone, client]);

  if (job.isError) return <Result status="error" title="无法获取导入进度" subTitle="请稍后在客户列表中查看导入结果" />;
  if (!info || info.status === 'running') {
    const view = importProgressView(info);
    if (view.phase === 'reading')
      return (
        <div style={{ padding: '32px 8px', textAlign: 'center' }} role="status">
          <Spin />
          <div style={{ marginTop: 12 }}>
            <Typography.Text type="secondary">{view.text}</Typography.Text>
          </div>
        </div>
      );
    return (
      <div style={{ padding: '32px 8px' }} role="status">
        <Progress percent={view.percent} status="active" />
        <Typography.Text type="secondary">{view.text}</Typography.Text>
      </div>
    );
  }
  if (info.status === 'failed')
    return <Result status="error" title="导入失败" subTitle={info.error || '导入未完成，数据未写入'} />;
  const r = info.result ?? { created: 0, updated: 0, skipped: 0, rejected: 0, reasons: [] };
  return (
    <>
      <Alert
        type={r.rejected > 0 ? 'warning' : 'success'}
        showIcon
        title={r.rejected > 0 ? `导入完成，${r.rejected} 条数据未导入` : '导入完成'}
        action={
          r.rejected > 0 && info.fileUrl ? (
            <a href={info.fileUrl} download={info.fileName}>
              下载未导入的数据
            </a>
          ) : undefined
        }
        style={{ marginBottom: 16 }}
      />
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col span={6}>
          <Statistic title="新增" value={r.created} suffix="条" />
        </Col>
        <Col span={6}>
          <Statistic title="更新" value={r.updated} suffix="条" />
        </Col>
        <Col span={6}>
          <Statistic title="跳过" value={r.skipped} suffix="条" />
        </Col>
        <Col span={6}>
          <Statistic
            title="未导入"
            value={r.rejected}
            suffix="条"
            styles={{ content: r.rejected > 0 ? { color: '#cf1322' } : undefined }}
          />
        </Col>
      </Row>
      {r.reasons.length > 0 && (
        <Table
          rowKey={(x) => `${x.row}-${x.reason}`}
          size="small"
          dataSource={r.reasons}
          pagination={{ pageSize: 5, size: 'small', showSizeChanger: false }}
          columns={[
            { title: '行号', dataIndex: 'row', width: 90 },
            { title: '原因', dataIndex: 'reason' },
          ]}
        />
      )}
    </>
  );
};

type Props = { open: boolean; onClose: () => void };

/** 导入客户: upload an .xlsx, map its columns, choose what duplicates do, run it as a job. */
export const ImportWizard = ({ open, onClose }: Props) => {
  const { message } = App.useApp();
  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Map<number, Target>>(new Map());
  const [duplicateMode, setDuplicateMode] = useState<DuplicateMode>('skip');
  const [jobId, setJobId] = useState<string | null>(null);
  const template = useTemplateInfo(0, open);
  const upload = useImportPreview();
  const start = useStartImport();
  const job = useJob(jobId);
  const isRunning = jobId !== null && (!job.data || job.data.status === 'running') && !job.isError;

  const targets = useMemo(
    () => [
      { value: 'name' as Target, label: '客户名称' },
      ...flatten(enabledControls(template.data?.templateControls ?? []))
        .filter((c) => !NOT_IMPORTABLE.includes(c.dmType))
        .map((c) => ({ value: c.cbTacid as Target, label: c.name })),
    ],
    [template.data],
  );

  const restart = () => {
    setStep(0);
    setPreview(null);
    setMapping(new Map());
    setDuplicateMode('skip');
    setJobId(null);
  };

  const choose = async (file: File) => {
    if (!isXlsx(file)) {
      message.error('仅支持 .xlsx 格式的文件');
      return;
    }
    try {
      const result = await upload.mutateAsync(file);
      setPreview(result);
      setMapping(new Map(result.mapping.map((m) => [m.column, m.target])));
      setStep(1);
    } catch {
      // the http client has shown the server's message
    }
  };

  const [begin, isLocked] = useButtonLock(async () => {
    if (!preview) return;
    const items = [...mapping].map(([column, target]) => ({ column, target }));
    if (items.length === 0) {
      message.warning('请至少映射一列');
      return;
    }
    try {
      const { jobId: id } = await start.mutateAsync({ fileId: preview.fileId, mapping: items, duplicateMode });
      setJobId(id);
      setStep(2);
    } catch {
      // shown by the http client
    }
  });

  const footer = () => {
    if (step === 0) return <Button onClick={onClose}>取消</Button>;
    if (step === 1)
      return (
        <Space>
          <Button onClick={restart}>上一步</Button>
          <Button type="primary" loading={start.isPending} disabled={isLocked || mapping.size === 0} onClick={begin}>
            开始导入
          </Button>
        </Space>
      );
    return (
      <Space>
        {!isRunning && <Button onClick={restart}>继续导入</Button>}
        <Button type="primary" onClick={onClose}>
          {isRunning ? '后台运行' : '完成'}
        </Button>
      </Space>
    );
  };

  return (
    <Modal
      title="导入客户"
      open={open}
      width={800}
      onCancel={onClose}
      footer={footer()}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Steps
        current={step}
        size="small"
        style={{ margin: '8px 0 24px' }}
        items={[{ title: '上传文件' }, { title: '字段映射' }, { title: '导入结果' }]}
      />
      {step === 0 && (
        <Spin spinning={upload.isPending} description="正在读取文件…">
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={
              <>
                请先
                <a href={IMPORT_TEMPLATE_URL} download>
                  下载导入模板
                </a>
                ，按模板填写后上传。仅支持 .xlsx 文件，单次最多 {IMPORT_MAX_ROWS} 条。
              </>
            }
          />
          <Upload.Dragger
            accept=".xlsx"
            multiple={false}
            showUploadList={false}
            beforeUpload={(file) => {
              void choose(file);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或将文件拖拽到此处上传</p>
            <p className="ant-upload-hint">支持 .xlsx 格式</p>
          </Upload.Dragger>
        </Spin>
      )}
      {step === 1 && preview && (
        <MappingStep
          preview={preview}
          targets={targets}
          mapping={mapping}
          onMap={(column, target) =>
            setMapping((m) => {
              const next = new Map(m);
              if (target === null) next.delete(column);
              else next.set(column, target);
              return next;
            })
          }
          duplicateMode={duplicateMode}
          onDuplicateMode={setDuplicateMode}
        />
      )}
      {step === 2 && jobId && <ResultStep jobId={jobId} />}
    </Modal>
  );
};
