/** 导出 of any list exported by a background job (customers, orders, receipts, work orders, AI calls): the button and its progress window. */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { downloadFile } from './downloadFile';
import { useButtonLock } from './useButtonLock';
import { useJob } from './useJob';

const percentOf = (processed: number, total: number) => (total > 0 ? Math.min(100, Math.floor((processed / total) * 100)) : 0);

/** Progress of one export job (customers, orders); the file downloads by itself when the job is done. */
export const ExportProgressModal = ({ jobId, title, onClose }: { jobId: string | null; title: string; onClose: () => void }) => {
  const job = useJob(jobId);
  const info = job.data;
  const downloaded = useRef<string | null>(null);
  useEffect(() => {
    if (info?.status === 'done' && info.fileUrl && downloaded.current !== info.jobId) {
      downloaded.current = info.jobId;
      downloadFile(info.fileUrl, info.fileName);
    }
  }, [info]);

  const body = () => {
    if (job.isError) return <Result status="error" title="无法获取导出进度" subTitle="请稍后重试" />;
    // until the job has counted its rows there is nothing to show but that it is getting ready
    if (!info || (info.status === 'running' && info.total === 0))
      return (
        <div style={{ padding: '24px 8px' }}>
          <Progress percent={0} status="active" showInfo={false} />
          <Typography.Text type="secondary">准备中…</Typography.Text>
        </div>
      );
    if (info.status === 'running')
      return (
        <div style={{ padding: '24px 8px' }}>
          <Progress percent={percentOf(info?.processed ?? 0, info?.total ?? 0)} status="active" />
          <Typography.Text type="secondary">
            已导出 {info.processed} / 共 {info.total} 条
          </Typography.Text>
        </div>
      );
    if (info.status === 'failed') return <Result status="error" title="导出失败" subTitle={info.error || undefined} />;
    return (
      <Result
        status="success"
        title="导出完成"
        subTitle={`共导出 ${info.total} 条，文件已开始下载`}
        extra={
          <a href={info.fileUrl} download={info.fileName}>
            未开始下载？点此重新下载
          </a>
        }
      />
    );
  };

  return (
    <Modal
      title={title}
      open={jobId !== null}
      onCancel={onClose}
      footer={
        <Button type={info?.status === 'running' ? 'default' : 'primary'} onClick={onClose}>
          {info?.status === 'running' ? '关闭' : '完成'}
        </Button>
      }
      mask={{ closable: false }}
      destroyOnHidden
    >
      {body()}
    </Modal>
  );
};

type Props<Input> = {
  /** the modal's title, e.g. 导出订单 */
  title: string;
  /** the mutation that starts the export job (the feature's useStart…Export) */
  start: { mutateAsync: (input: Input) => Promise<{ jobId: string }>; isPending: boolean };
  /** what the job exports: the list's current filters */
  input: Input;
};

/** 导出: starts the export job with the list's current filters, then shows its progress; the file downloads by itself. */
export const JobExportButton = <Input,>({ title, start, input }: Props<Input>) => {
  const [jobId, setJobId] = useState<string | null>(null);
  const [run, isLocked] = useButtonLock(async () => {
    try {
      setJobId((await start.mutateAsync(input)).jobId);
    } catch {
      // the http client has shown the server's message
    }
  });
  return (
    <>
      <Button icon={<DownloadOutlined />} loading={start.isPending} disabled={isLocked && !start.isPending} onClick={run}>
        导出
      </Button>
      <ExportProgressModal jobId={jobId} title={title} onClose={() => setJobId(null)} />
    </>
  );
};
