import { CALL_TYPE, CALL_TYPE_LABEL, type CallListBody, type CallRecordRow, HANGUP_SIDE_LABEL } from '@crm/contracts';
import { Alert, Badge, Button, Card, Empty, Flex, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { NumberRange, SearchField, SearchOption, SearchValues } from '../../../components/SearchBar/types';
import { useTablePaging } from '../../../components/useTablePaging';
import { useMarkMissedSeen } from '../../../phone/missedCalls';
import { AddToDncButton } from '../../compliance/components/AddToDncButton';
import { fetchStaffOptions } from '../../customers/api';
import { useDepartmentTree } from '../../departments/api';
import { billsecText, useCallList } from '../api';
import { callParties } from '../callParties';
import { RecordingPlayer } from '../components/RecordingPlayer';

const options = (labels: Record<number, string>, skip: number[] = []) =>
  Object.entries(labels)
    .filter(([v]) => !skip.includes(Number(v)))
    .map(([value, label]) => ({ value: Number(value), label }));

const staffOptions = async (keyword: string): Promise<SearchOption[]> =>
  (await fetchStaffOptions(keyword)).map((s) => ({ value: s.staff_id, label: s.linkman }));

/** SearchBar values → the list body of SPEC §7. */
const toBody = (v: SearchValues): Partial<CallListBody> => {
  const billsec = v.billsec as NumberRange | undefined;
  const time = v.time as [string, string] | undefined;
  return {
    cmDid: v.cmDid as number | undefined,
    cmSid: v.cmSid as number | undefined,
    cmSipuser: v.cmSipuser as string | undefined,
    cmgoidCaller: v.cmgoidCaller as string | undefined,
    dstNumber: v.dstNumber as string | undefined,
    startBillsec: billsec?.min,
    endBillsec: billsec?.max,
    callType: v.callType as number | undefined,
    hangupPeople: v.hangupPeople as number | undefined,
    isConnected: v.isConnected as number | undefined,
    startTime: time?.[0],
    endTime: time?.[1],
  };
};

/** A cell of two facts: the first as text, the second smaller below it. */
const TwoLines = ({ top, bottom }: { top: string; bottom: string }) => (
  <Flex vertical>
    <Typography.Text ellipsis>{top}</Typography.Text>
    <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
      {bottom}
    </Typography.Text>
  </Flex>
);

/**
 * /call/record: the call records with the SPEC §7 filters, playback and download. `?uuid=` (a
 * call charge's link in 消费明细) shows that one call, until 查看全部 clears it.
 */
export const CallRecordPage = () => {
  const departments = useDepartmentTree();
  const [params, setParams] = useSearchParams();
  const uuid = params.get('uuid')?.trim() || undefined;
  const [values, setValues] = useState<SearchValues | null>(null);
  const paging = useTablePaging(20);
  const body = useMemo(
    () => ({ ...toBody(values ?? {}), uuid, page: paging.page, limit: paging.limit }),
    [values, uuid, paging.page, paging.limit],
  );
  const { data, isFetching } = useCallList(body);
  const { mutate: markSeen } = useMarkMissedSeen();

  const fields = useMemo<SearchField[]>(
    () => [
      { kind: 'datetimePair', name: 'time', label: '呼叫时间' },
      { kind: 'text', name: 'dstNumber', label: '客户号码' },
      { kind: 'remoteSelect', name: 'cmSid', label: '员工', fetchOptions: staffOptions },
      {
        kind: 'custom',
        name: 'cmDid',
        label: '部门',
        render: () => <DepartmentTreeSelect departments={departments.data ?? []} placeholder="部门" style={{ width: 200 }} />,
      },
      {
        kind: 'select',
        name: 'isConnected',
        label: '是否接通',
        options: [
          { value: 1, label: '已接通' },
          { value: 2, label: '未接通' },
        ],
      },
      { kind: 'select', name: 'callType', label: '呼叫类型', options: options(CALL_TYPE_LABEL), isMore: true },
      { kind: 'select', name: 'hangupPeople', label: '挂断方', options: options(HANGUP_SIDE_LABEL, [0]), isMore: true },
      { kind: 'text', name: 'cmSipuser', label: '分机号', isMore: true },
      { kind: 'text', name: 'cmgoidCaller', label: '主叫号码', isMore: true },
      { kind: 'numberRange', name: 'billsec', label: '通话时长(秒)', min: 0, max: 99999999, isMore: true },
    ],
    [departments.data],
  );

  // Two-line cells keep the thirteen SPEC §3 fields within 1366 px: no column is hidden under another.
  const columns: TableColumnsType<CallRecordRow> = [
    {
      title: '员工 / 部门',
      dataIndex: 'cmSidName',
      width: 112,
      ellipsis: true,
      // no agent on the call (cmSid 0): the server names who is (系统外呼 for a call it placed, AI接待 for one its bot answered)
      render: (v: string, row) =>
        row.cmSid ? <TwoLines top={v || '-'} bottom={row.cmDidName || '-'} /> : <TwoLines top={v || '系统外呼'} bottom="-" />,
    },
    // no agent on it: no extension (an AI接待 call's cmSipuser is the reception number it came in on, its callee)
    { title: '分机', dataIndex: 'cmSipuser', width: 64, render: (v: string, row) => (row.cmSid ? v || '-' : '-') },
    {
      title: '呼叫类型',
      dataIndex: 'callType',
      width: 84,
      render: (v: number) => <Badge color={v === 4 ? 'purple' : 'blue'} text={CALL_TYPE_LABEL[v] ?? '-'} />,
    },
    // SPEC §6: masked numbers arrive masked and stay so; incoming, the customer is the caller
    { title: '主叫号码', key: 'caller', width: 112, render: (_, row) => callParties(row).caller || '-' },
    { title: '被叫号码', key: 'called', width: 112, render: (_, row) => callParties(row).called || '-' },
    {
      title: '客户',
      dataIndex: 'customerName',
      width: 100,
      ellipsis: true,
      render: (v: string, row) =>
        row.cmCtid > 0 ? <Link to={`/manage/mycustomer?detail=${row.cmCtid}`}>{v || '未命名'}</Link> : '-',
    },
    {
      title: '呼叫 / 接通时间',
      dataIndex: 'startTime',
      width: 156,
      render: (v: string, row) => <TwoLines top={v} bottom={row.answerTime || '未接通'} />,
    },
    {
      title: '通话时长',
      dataIndex: 'billsec',
      width: 84,
      render: (v: number, row) => (row.isActive ? <Badge status="processing" text="通话中" /> : billsecText(v)),
    },
    {
      title: '挂断方 / 原因',
      dataIndex: 'hangupPeople',
      width: 104,
      render: (v: number, row) =>
        row.isActive ? '-' : <TwoLines top={HANGUP_SIDE_LABEL[v] ?? '-'} bottom={row.hangupCauseName || '-'} />,
    },
    {
      // the row action (加入禁拨, issue 15) shares the recording's column: no column is hidden at 1366 px
      title: '录音 / 操作',
      dataIndex: 'recordFile',
      width: 128,
      render: (v: string, row) => (
        <Flex vertical align="start">
          <RecordingPlayer src={v} name={`通话录音-${row.startTime.replace(/\D/g, '')}`} />
          {!row.isActive && <AddToDncButton uuid={row.uuid} />}
        </Flex>
      ),
    },
  ];

  return (
    <Card title="通话记录">
      <SearchBar
        name="callRecordSearch"
        fields={fields}
        onSearch={(v) => {
          // SPEC §2: the agent looked at his missed calls: the call button's badge clears
          if (v.callType === CALL_TYPE.inbound && v.isConnected === 2) markSeen();
          setValues(v);
          paging.resetPage();
        }}
      />
      {uuid && (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          showIcon
          message={`仅显示通话 ${uuid}`}
          data-testid="call-record-uuid"
          action={
            <Button
              size="small"
              onClick={() => {
                setParams({});
                paging.resetPage();
              }}
            >
              查看全部
            </Button>
          }
        />
      )}
      <Table<CallRecordRow>
        style={{ marginTop: 16 }}
        rowKey="uuid"
        size="middle"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: columns.reduce((sum, c) => sum + Number(c.width ?? 120), 0) }}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无通话记录" /> }}
      />
    </Card>
  );
};
