/** 导入客户 step 3: the import job's progress, then its report. */
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Col, Progress, Result, Row, Spin, Statistic, Table, Typography } from 'antd';
import { useEffect } from 'react';
import { useJob } from '../../../components/useJob';
import { customerListKeys } from '../api';
import { importProgressView } from './importProgress';

/** Step 3: progress of the import job, then its report. */
export const ResultStep = ({ jobId }: { jobId: string }) => {
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
