import { InboxOutlined } from '@ant-design/icons';
import { DM_TYPE, IMPORT_MAX_ROWS, type ImportPreview, type TemplateControl } from '@crm/contracts';
import { Alert, App, Button, Modal, Space, Spin, Steps, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { enabledControls } from '../../../components/TemplateForm';
import { useButtonLock } from '../../../components/useButtonLock';
import { useJob } from '../../../components/useJob';
import { IMPORT_TEMPLATE_URL, useImportPreview, useStartImport } from '../api';
import { useTemplateInfo } from '../templates-api';
import { type DuplicateMode, MappingStep, type Target } from './ImportMappingStep';
import { ResultStep } from './ImportResultStep';

const flatten = (controls: TemplateControl[]): TemplateControl[] => controls.flatMap((c) => [c, ...flatten(c.children ?? [])]);
/** Kinds an import column cannot fill. */
const NOT_IMPORTABLE: readonly number[] = [DM_TYPE.staticText, DM_TYPE.group];

const isXlsx = (file: File) => file.name.toLowerCase().endsWith('.xlsx');

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
