import { CONTACT_STATUS, CONTACT_STATUS_LABEL, type CustomerRow, DM_TYPE, type TemplateControl } from '@crm/contracts';
import { Badge, Button, Space, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import dayjs from 'dayjs';
import { relativeTime } from '../../../components/relativeTime';
import { DialButton } from '../../../phone/components/DialButton';
import type { CustomerListQuery } from '../api';

/** The columns a page may show; each page lists the ones that apply. */
export type CustomerColumnKey =
  | 'name'
  | 'contactName'
  | 'contactPhone'
  | 'stage'
  | 'tags'
  | 'owner'
  | 'department'
  | 'lastContact'
  | 'nextFollowTime'
  | 'contactNum'
  | 'controls'
  | 'allotTime'
  | 'exRecoveryTime'
  | 'createTime';

export type CustomerSort = Pick<CustomerListQuery, 'orderParams' | 'orderSort'>;

const STATUS_BADGE: Record<number, 'default' | 'success' | 'warning'> = {
  [CONTACT_STATUS.never]: 'default',
  [CONTACT_STATUS.connected]: 'success',
  [CONTACT_STATUS.unanswered]: 'warning',
};
const MAX_TAGS = 2;
const dash = (v: string | number | null | undefined) => (v === '' || v === null || v === undefined ? '-' : v);

type Options = {
  keys: readonly CustomerColumnKey[];
  /** Template controls shown as columns (a few text and option controls). */
  controls: TemplateControl[];
  sort: CustomerSort;
  onEdit: (row: CustomerRow) => void;
  onOpen: (row: CustomerRow) => void;
};

/** Table columns of the customer lists; sortable ones map to orderParams (ORDER_FIELDS). */
export const customerColumns = ({ keys, controls, sort, onEdit, onOpen }: Options): TableColumnsType<CustomerRow> => {
  const sortOrder = (field: NonNullable<CustomerSort['orderParams']>): SortOrder =>
    sort.orderParams === field ? (sort.orderSort === 'asc' ? 'ascend' : 'descend') : null;
  const sortable = (field: NonNullable<CustomerSort['orderParams']>) => ({
    key: field,
    sorter: true,
    sortOrder: sortOrder(field),
    sortDirections: ['descend', 'ascend'] as SortOrder[],
  });

  const byKey: Record<CustomerColumnKey, TableColumnsType<CustomerRow>> = {
    // The name (and the whole row) opens the customer detail.
    name: [
      {
        title: '客户名称',
        dataIndex: 'name',
        width: 200,
        fixed: 'left',
        ellipsis: true,
        ...sortable('name'),
        // A real link (?detail=ID): it opens the drawer here, or the same page in a new tab.
        render: (v: string, row) => (
          <Typography.Link
            strong
            href={`?detail=${row.cmCtid}`}
            onClick={(e) => {
              if (e.ctrlKey || e.metaKey || e.shiftKey) return;
              e.preventDefault();
              onOpen(row);
            }}
          >
            {v || '未命名'}
          </Typography.Link>
        ),
      },
    ],
    contactName: [{ title: '联系人', dataIndex: 'contactName', width: 110, ellipsis: true, render: dash }],
    // SPEC §6: the server masks numbers the viewer may not see; they are shown as given.
    // The phone icon dials the template's first phone control by id, never by the (maybe masked) number.
    contactPhone: [
      {
        title: '电话',
        dataIndex: 'contactPhone',
        width: 170,
        render: (v: string, row) => {
          const phone = row.templateControls.find((c) => c.dmType === DM_TYPE.phone && c.dmValue.some((x) => x));
          return (
            <Space size={0}>
              <span>{dash(v)}</span>
              {phone && <DialButton isIconOnly target={{ cmCtid: row.cmCtid, cbTacid: phone.cbTacid }} />}
            </Space>
          );
        },
      },
    ],
    stage: [
      {
        title: '阶段',
        dataIndex: 'cmNidName',
        width: 110,
        render: (v: string) => (v ? <Tag color="blue">{v}</Tag> : '-'),
      },
    ],
    tags: [
      {
        title: '标签',
        dataIndex: 'cmClidsInfo',
        width: 200,
        render: (tags: CustomerRow['cmClidsInfo']) => {
          if (tags.length === 0) return '-';
          const shown = tags.slice(0, MAX_TAGS);
          const rest = tags.slice(MAX_TAGS);
          return (
            <Space size={[0, 4]} wrap>
              {shown.map((t) => (
                <Tag key={t.cmClid} color="gold">
                  {t.name}
                </Tag>
              ))}
              {rest.length > 0 && (
                <Tooltip title={rest.map((t) => t.name).join('、')}>
                  <Tag>+{rest.length}</Tag>
                </Tooltip>
              )}
            </Space>
          );
        },
      },
    ],
    owner: [{ title: '负责人', dataIndex: 'ownerName', width: 110, ellipsis: true, render: (v: string) => v || '公海' }],
    department: [{ title: '所属部门', dataIndex: 'cmDidName', width: 120, ellipsis: true, render: dash }],
    lastContact: [
      {
        title: '最近联系',
        dataIndex: 'lastContactTime',
        width: 160,
        ...sortable('lastContactTime'),
        render: (v: string, row) => (
          <Space size={6}>
            <Badge
              status={STATUS_BADGE[row.lastContactStatus] ?? 'default'}
              text={CONTACT_STATUS_LABEL[row.lastContactStatus] ?? '-'}
            />
            {v && (
              <Tooltip title={v}>
                <Typography.Text type="secondary">{relativeTime(v)}</Typography.Text>
              </Tooltip>
            )}
          </Space>
        ),
      },
    ],
    nextFollowTime: [
      {
        title: '下次跟进',
        dataIndex: 'nextFollowTime',
        width: 170,
        ...sortable('nextFollowTime'),
        // An appointment already past is overdue: shown in red.
        render: (v: string) =>
          v ? <Typography.Text type={dayjs(v).isBefore(dayjs()) ? 'danger' : undefined}>{v}</Typography.Text> : '-',
      },
    ],
    contactNum: [{ title: '联系次数', dataIndex: 'contactNum', width: 110, align: 'right', ...sortable('contactNum') }],
    controls: controls.map((c) => ({
      title: c.name,
      key: `tc_${c.cbTacid}`,
      width: 130,
      ellipsis: true,
      render: (_: unknown, row: CustomerRow) => {
        const value = row.templateControls.find((v) => v.cbTacid === c.cbTacid);
        const text = (value?.dmValueText.length ? value.dmValueText : (value?.dmValue ?? [])).join('、');
        return text || '-';
      },
    })),
    allotTime: [{ title: '分配时间', dataIndex: 'allotTime', width: 170, ...sortable('allotTime'), render: dash }],
    exRecoveryTime: [
      {
        title: '预计回收时间',
        dataIndex: 'exRecoveryTime',
        width: 250,
        // When the recycling sweep takes the customer back; within the reminder days: 即将回收.
        render: (v: string | undefined, row: CustomerRow) =>
          v ? (
            <Space size={4}>
              <span>{v}</span>
              {row.isRecycleSoon && <Tag color="orange">即将回收</Tag>}
            </Space>
          ) : (
            '-'
          ),
      },
    ],
    createTime: [{ title: '创建时间', dataIndex: 'createTime', width: 170, ...sortable('createTime') }],
  };

  return [
    ...keys.flatMap((k) => byKey[k]),
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => onEdit(row)}>
          编辑
        </Button>
      ),
    },
  ];
};
