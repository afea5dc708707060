import { UploadOutlined } from '@ant-design/icons';
import { CONTACT_STATUS_LABEL, type CustomerRow } from '@crm/contracts';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  Radio,
  Row,
  Segmented,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tabs,
  Typography,
  Upload,
} from 'antd';
import { useMemo, useState } from 'react';
import { ListSearch } from '../../../components/ListSearch';
import { useCustomerList, useStageOptions } from '../../customers/api';
import { useLabelTree } from '../../labels/api';
import { useStaffOptions } from '../../staff/api';
import { readNumberFile } from '../api';
import { MAX_NUMBERS, parseNumberLines, type SourceKind } from './taskForm';

const CONTACT_OPTIONS = Object.entries(CONTACT_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** 按筛选条件: a subset of the customer list's filter, saved with the task (customerWhere). */
const FilterSource = () => {
  const stages = useStageOptions();
  const labels = useLabelTree();
  const [linkman, setLinkman] = useState('');
  const staff = useStaffOptions(linkman);
  const labelOptions = useMemo(
    () =>
      (labels.data ?? []).map((g) => ({
        label: g.name,
        title: g.name,
        options: (g.children ?? []).map((l) => ({ value: l.cmClid, label: l.name })),
      })),
    [labels.data],
  );
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item name={['filter', 'kind']} label="客户列表">
          <Radio.Group
            options={[
              { value: 'mine', label: '我的客户' },
              { value: 'allot', label: '分配客户' },
            ]}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'name']} label="客户名称">
          <Input maxLength={50} allowClear placeholder="包含的文字" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'contactPhone']} label="联系电话">
          <Input maxLength={20} allowClear placeholder="号码" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'cmNid']} label="客户阶段">
          <Select
            allowClear
            placeholder="全部阶段"
            options={(stages.data ?? []).map((s) => ({ value: s.cmNid, label: s.name }))}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'lastContactStatus']} label="联系状态">
          <Select allowClear placeholder="全部" options={CONTACT_OPTIONS} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'cmClids']} label="客户标签">
          <Select mode="multiple" allowClear placeholder="任一标签" options={labelOptions} maxTagCount="responsive" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'followCmSid']} label="负责人">
          <Select
            allowClear
            showSearch={{ filterOption: false, onSearch: setLinkman }}
            placeholder="全部"
            options={(staff.data ?? []).map((s) => ({ value: s.staff_id, label: s.linkman }))}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name={['filter', 'createTime']} label="创建时间">
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Typography.Text type="secondary">
          创建任务时按条件取出您可见的客户（每个客户取第一个号码，最多{MAX_NUMBERS}个）。
        </Typography.Text>
      </Col>
    </Row>
  );
};

/** 选择客户: a page of 分配客户 or 我的客户 with row selection (kept across pages). */
const SelectSource = ({ value = [], onChange }: { value?: number[]; onChange?: (v: number[]) => void }) => {
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'allot' | 'mine'>('allot');
  const list = useCustomerList(kind, { page, limit: 10, name: name || undefined });
  const columns: TableColumnsType<CustomerRow> = [
    { title: '客户名称', dataIndex: 'name', ellipsis: true, render: (v: string) => v || '未命名' },
    { title: '联系电话', dataIndex: 'contactPhone', width: 140 },
    { title: '阶段', dataIndex: 'cmNidName', width: 100 },
    { title: '负责人', dataIndex: 'ownerName', width: 100 },
  ];
  return (
    <Space orientation="vertical" style={{ display: 'flex' }}>
      <Space>
        <Segmented
          value={kind}
          onChange={(v) => {
            setKind(v as 'allot' | 'mine');
            setPage(1);
          }}
          options={[
            { value: 'allot', label: '分配客户' },
            { value: 'mine', label: '我的客户' },
          ]}
        />
        <ListSearch
          placeholder="搜索客户名称"
          maxLength={50}
          width={240}
          onSearch={(v) => {
            setName(v);
            setPage(1);
          }}
        />
        <Typography.Text>已选 {value.length} 个客户</Typography.Text>
        {value.length > 0 && (
          <Button size="small" type="link" onClick={() => onChange?.([])}>
            清空
          </Button>
        )}
      </Space>
      <Table<CustomerRow>
        rowKey="cmCtid"
        size="small"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        rowSelection={{
          selectedRowKeys: value,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onChange?.(keys.map(Number)),
        }}
        pagination={{ current: page, pageSize: 10, total: list.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
        scroll={{ y: 260 }}
      />
    </Space>
  );
};

/** 导入号码: one number a line, typed or read from a file (.xlsx read by the server, .txt/.csv here); a count and the invalid lines. */
const ImportSource = ({ value = '', onChange }: { value?: string; onChange?: (v: string) => void }) => {
  const { message } = App.useApp();
  const parsed = useMemo(() => parseNumberLines(value), [value]);
  const [isReading, setReading] = useState(false);
  const readFile = async (file: File) => {
    const ext = file.name.toLowerCase().split('.').pop();
    if (ext === 'xlsx') {
      setReading(true);
      try {
        onChange?.((await readNumberFile(file)).join('\n'));
      } catch {
        // the http client has shown the server's message
      } finally {
        setReading(false);
      }
    } else if (ext === 'txt' || ext === 'csv') {
      const text = await file.text();
      // a CSV's first column
      onChange?.(
        text
          .split(/\r?\n/)
          .map((l) => l.split(/[,，\t]/)[0] ?? '')
          .join('\n'),
      );
    } else {
      message.error('请上传 .xlsx、.txt 或 .csv 文件');
    }
    return false;
  };
  return (
    <Space orientation="vertical" style={{ display: 'flex' }}>
      <Space>
        <Upload accept=".xlsx,.txt,.csv" showUploadList={false} beforeUpload={readFile}>
          <Button icon={<UploadOutlined />} loading={isReading}>
            读取文件（.xlsx/.txt/.csv）
          </Button>
        </Upload>
        <Typography.Text type="secondary">每行一个号码，最多{MAX_NUMBERS}个</Typography.Text>
      </Space>
      <Input.TextArea
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        rows={8}
        placeholder={'13800000000\n13900000000'}
        aria-label="导入号码"
      />
      <Space size={16}>
        <Typography.Text>
          有效号码 <b>{parsed.numbers.length}</b> 个
        </Typography.Text>
        {parsed.duplicates > 0 && <Typography.Text type="secondary">重复 {parsed.duplicates} 个（已去重）</Typography.Text>}
        {parsed.invalid.length > 0 && <Typography.Text type="danger">无效 {parsed.invalid.length} 行</Typography.Text>}
      </Space>
      {parsed.invalid.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title="以下行不是有效号码，不会导入"
          description={
            parsed.invalid
              .slice(0, 10)
              .map((l) => `第${l.line}行：${l.text}`)
              .join('；') + (parsed.invalid.length > 10 ? ` 等${parsed.invalid.length}行` : '')
          }
        />
      )}
    </Space>
  );
};

/** The customers of a new task: one source of three (tabs). */
export const CustomerSourceField = ({ source, onSource }: { source: SourceKind; onSource: (s: SourceKind) => void }) => (
  <Tabs
    activeKey={source}
    onChange={(k) => onSource(k as SourceKind)}
    items={[
      { key: 'filter', label: '按筛选条件', children: <FilterSource /> },
      {
        key: 'select',
        label: '选择客户',
        children: (
          <Form.Item name="cmCtids" noStyle>
            <SelectSource />
          </Form.Item>
        ),
      },
      {
        key: 'import',
        label: '导入号码',
        children: (
          <Form.Item name="numbersText" noStyle>
            <ImportSource />
          </Form.Item>
        ),
      },
    ]}
  />
);
