import { InboxOutlined, SearchOutlined } from '@ant-design/icons';
import { LEAD_LIMITS, LEAD_MATCH_LABEL, type LeadBatchRow, type LeadCompany } from '@crm/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Input,
  Progress,
  Segmented,
  Space,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { JobExportButton } from '../../../components/JobExportButton';
import { useButtonLock } from '../../../components/useButtonLock';
import { useTablePaging } from '../../../components/useTablePaging';
import { uploadFile, useBatchResult, useStartBatch, useStartBatchExport } from '../api';
import { parseNames, tooManyNames } from '../components/batchNames';
import { CompanyCardDrawer } from '../components/CompanyCardDrawer';
import { CompanyStatusTag } from '../components/CompanyStatusTag';
import { ConvertModal } from '../components/ConvertModal';

type Match = 'exact' | 'fuzzy' | 'none';
const MATCH_COLOR: Record<string, string> = { exact: 'success', fuzzy: 'warning', none: 'default' };

/** /jingxiansuo/batchCompany 批量查企业: up to 10,000 names matched by a durable job; export, or turn the matched into customers. */
export const BatchLookupPage = () => {
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  // the job lives in the URL: a reload (or coming back later) shows the same job
  const jobId = params.get('job');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [inputTab, setInputTab] = useState<'paste' | 'file'>('paste');
  const names = useMemo(() => parseNames(text), [text]);
  const problem = tooManyNames(names.length);
  const start = useStartBatch();
  const startExport = useStartBatchExport();
  const [match, setMatch] = useState<Match | 'all'>('all');
  const paging = useTablePaging(LEAD_LIMITS.pageSize);
  const result = useBatchResult(
    jobId ? { jobId, match: match === 'all' ? undefined : match, page: paging.page, limit: paging.limit } : null,
  );
  const [selected, setSelected] = useState<{ id: number; name: string }[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [isConvertOpen, setConvertOpen] = useState(false);

  const [begin, isLocked] = useButtonLock(async () => {
    try {
      let body: { names?: string[]; fileId?: number };
      if (inputTab === 'paste') {
        if (names.length === 0) return void message.warning('请粘贴企业名称，每行一个');
        if (problem) return void message.error(problem);
        body = { names };
      } else {
        if (!file) return void message.warning('请选择 .xlsx 文件');
        body = { fileId: (await uploadFile(file)).id };
      }
      const { jobId: id } = await start.mutateAsync(body);
      setMatch('all');
      setSelected([]);
      paging.resetPage();
      setParams({ job: id });
    } catch {
      // the http client has shown the server's message
    }
  });

  const data = result.data;
  const chosen = new Set(selected.map((s) => s.id));
  const isRunning = data?.status === 'running';
  const total = data?.summary.total ?? 0;
  const percent = total > 0 ? Math.min(100, Math.floor(((data?.processed ?? 0) / total) * 100)) : 0;

  const columns: TableColumnsType<LeadBatchRow> = [
    { title: '行号', dataIndex: 'row', width: 72 },
    { title: '输入名称', dataIndex: 'input', ellipsis: true },
    {
      title: '匹配结果',
      key: 'match',
      width: 150,
      render: (_: unknown, r) => (
        <Space size={4}>
          <Tag color={MATCH_COLOR[r.match]}>{LEAD_MATCH_LABEL[r.match] ?? r.match}</Tag>
          {r.match === 'fuzzy' && <Typography.Text type="secondary">相似度 {r.score}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: '匹配企业',
      key: 'company',
      ellipsis: true,
      render: (_: unknown, r) =>
        r.company ? (
          <Typography.Link onClick={() => setOpenId((r.company as LeadCompany).id)}>{r.company.name}</Typography.Link>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    {
      title: '状态',
      key: 'status',
      width: 72,
      render: (_: unknown, r) => (r.company ? <CompanyStatusTag status={r.company.status} /> : null),
    },
    { title: '统一社会信用代码', key: 'credit', width: 190, render: (_: unknown, r) => r.company?.creditCode || '-' },
  ];

  const summary = data?.summary;
  const matchOptions = [
    { value: 'all', label: `全部 ${summary?.total ?? 0}` },
    { value: 'exact', label: `精确匹配 ${summary?.exact ?? 0}` },
    { value: 'fuzzy', label: `模糊匹配 ${summary?.fuzzy ?? 0}` },
    { value: 'none', label: `未找到 ${summary?.none ?? 0}` },
  ];

  const input = (
    <>
      <Tabs
        activeKey={inputTab}
        onChange={(k) => setInputTab(k as 'paste' | 'file')}
        items={[
          {
            key: 'paste',
            label: '粘贴名称',
            children: (
              <>
                <Input.TextArea
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  rows={8}
                  placeholder={'每行一个企业名称，最多10000个，例如：\n深圳市某某科技有限公司\n北京某某信息技术有限公司'}
                  aria-label="企业名称列表"
                />
                <div style={{ marginTop: 8 }}>
                  <Typography.Text type={problem ? 'danger' : 'secondary'} data-testid="batch-count">
                    共 {names.length} 个企业名称（最多 {LEAD_LIMITS.batchMaxNames} 个）
                  </Typography.Text>
                </div>
                {problem && <Alert type="error" showIcon style={{ marginTop: 8 }} title={problem} />}
              </>
            ),
          },
          {
            key: 'file',
            label: '上传文件',
            children: (
              <Upload.Dragger
                accept=".xlsx"
                maxCount={1}
                beforeUpload={(f) => {
                  if (!f.name.toLowerCase().endsWith('.xlsx')) {
                    message.error('仅支持 .xlsx 格式的文件');
                    return Upload.LIST_IGNORE;
                  }
                  setFile(f);
                  return false;
                }}
                onRemove={() => setFile(null)}
                fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">点击或拖入 .xlsx 文件</p>
                <p className="ant-upload-hint">第一列为企业名称，最多10000行</p>
              </Upload.Dragger>
            ),
          },
        ]}
      />
      <Button
        type="primary"
        icon={<SearchOutlined />}
        style={{ marginTop: 12 }}
        loading={start.isPending}
        disabled={isLocked || (inputTab === 'paste' ? names.length === 0 || problem !== null : !file)}
        onClick={begin}
      >
        开始查询
      </Button>
    </>
  );

  const results = () => {
    if (!jobId) return null;
    if (result.isError)
      return <Alert type="error" showIcon title="无法获取查询结果" description="该查询任务不存在或已过期，请重新查询" />;
    if (!data) return <Progress percent={0} status="active" />;
    return (
      <>
        {isRunning ? (
          <div style={{ marginBottom: 16 }}>
            <Progress percent={percent} status="active" />
            <Typography.Text type="secondary">
              正在匹配 {data.processed} / {total}，可以离开本页，稍后回来查看
            </Typography.Text>
          </div>
        ) : data.status === 'failed' ? (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} title="查询任务失败，请重新查询" />
        ) : (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            title={`查询完成：共 ${total} 个，精确匹配 ${summary?.exact ?? 0} 个，模糊匹配 ${summary?.fuzzy ?? 0} 个，未找到 ${summary?.none ?? 0} 个`}
          />
        )}
        <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
          <Segmented
            value={match}
            options={matchOptions}
            onChange={(v) => {
              setMatch(v as Match | 'all');
              paging.resetPage();
            }}
          />
          <Space>
            {selected.length > 0 && <Typography.Text>已选择 {selected.length} 家</Typography.Text>}
            <Button
              type="primary"
              disabled={selected.length === 0 || selected.length > LEAD_LIMITS.maxSelect}
              onClick={() => setConvertOpen(true)}
            >
              转为客户
            </Button>
            {!isRunning && (
              <JobExportButton
                title="导出查询结果"
                start={startExport}
                input={{ jobId, match: match === 'all' ? undefined : match }}
              />
            )}
          </Space>
        </Space>
        <Table<LeadBatchRow>
          rowKey="row"
          size="middle"
          tableLayout="fixed"
          columns={columns}
          dataSource={data.list}
          loading={result.isFetching && !isRunning}
          pagination={paging.pagination(data.count)}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无结果" /> }}
          rowSelection={{
            selectedRowKeys: data.list.filter((r) => r.company && chosen.has(r.company.id)).map((r) => r.row),
            getCheckboxProps: (r) => ({ disabled: !r.company }),
            onChange: (_, rows) => {
              const picked = new Map(selected.map((s) => [s.id, s.name]));
              const onPage = new Set(data.list.flatMap((r) => (r.company ? [r.company.id] : [])));
              for (const id of onPage) picked.delete(id);
              for (const r of rows) if (r?.company) picked.set(r.company.id, r.company.name);
              setSelected([...picked].map(([id, name]) => ({ id, name })));
            },
          }}
        />
      </>
    );
  };

  return (
    <Card title="批量查企业" extra={jobId && <Button onClick={() => setParams({})}>新的查询</Button>}>
      {jobId ? results() : input}
      <CompanyCardDrawer id={openId} onClose={() => setOpenId(null)} />
      <ConvertModal
        open={isConvertOpen}
        leads={selected}
        onClose={() => setConvertOpen(false)}
        onDone={(r) => r.created.length > 0 && setSelected([])}
      />
    </Card>
  );
};
