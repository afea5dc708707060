import { DownloadOutlined } from '@ant-design/icons';
import type { PlanListQuery } from '@crm/contracts';
import { Button, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { downloadFile } from '../../customers/components/downloadFile';
import { useReceiptJob, useStartReceiptExport } from '../api';

const percentOf = (processed: number, total: number) => (total > 0 ? Math.min(100, Math.floor((processed / total) * 100)) : 0);

/** 导出: the receipt plans of the current filters as .xlsx, by a background job with its progress. */
export const ReceiptExportButton = ({ filters }: { filters: Partial<PlanListQuery> }) => {
  const start = useStartReceiptExport();
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useReceiptJob(jobId);
  const info = job.data;
  const downloaded = useRef<string | null>(null);
  useEffect(() => {
    if (info?.status === 'done' && info.fileUrl && downloaded.current !== info.jobId) {
      downloaded.current = info.jobId;
      downloadFile(info.fileUrl, info.fileName);
    }
  }, [info]);
  const [run, isLocked] = useButtonLock(async () => {
    try {
      setJobId((await start.mutateAsync(filters)).jobId);
    } catch {
      // the http client has shown the server's message
    }
  });
  const isRunning = !info || info.status === 'running';
  return (
    <>
      <Button icon={<DownloadOutlined />} loading={start.isPending} disabled={isLocked && !start.isPending} onClick={run}>
        导出
      </Button>
      <Modal
        title="导出回款计划"
        open={jobId !== null}
        onCancel={() => setJobId(null)}
        mask={{ closable: false }}
        destroyOnHidden
        footer={
          <Button type={isRunning ? 'default' : 'primary'} onClick={() => setJobId(null)}>
            {isRunning ? '关闭' : '完成'}
          </Button>
        }
      >
        {job.isError ? (
          <Result status="error" title="无法获取导出进度" subTitle="请稍后重试" />
        ) : isRunning ? (
          <div style={{ padding: '24px 8px' }}>
            <Progress percent={percentOf(info?.processed ?? 0, info?.total ?? 0)} status="active" />
            <Typography.Text type="secondary">
              已导出 {info?.processed ?? 0} / 共 {info?.total ?? 0} 条
            </Typography.Text>
          </div>
        ) : info.status === 'failed' ? (
          <Result status="error" title="导出失败" subTitle={info.error || undefined} />
        ) : (
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
        )}
      </Modal>
    </>
  );
};
