import { DownloadOutlined, UserSwitchOutlined } from '@ant-design/icons';
import type { CustomerRow, MoveResult, SeasRowExtra } from '@crm/contracts';
import { App, Button, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import type { SearchField } from '../../../components/SearchBar/types';
import { hasPermission, useSession } from '../../../stores/session';
import { CustomerListView } from '../../customers/components/CustomerListView';
import { useBaseDiscardReasons, useClaim, useVisiblePools } from '../api';
import { AllotModal } from '../components/AllotModal';

type SeasRow = CustomerRow & Partial<SeasRowExtra>;

const COLUMNS: TableColumnsType<CustomerRow> = [
  { title: '所属公海', key: 'cmHsidName', width: 120, render: (_, r: SeasRow) => r.cmHsidName || '-' },
  { title: '丢弃理由', key: 'discardReason', width: 160, ellipsis: true, render: (_, r: SeasRow) => r.discardReason || '-' },
  { title: '原负责人', key: 'lastOwnerName', width: 100, render: (_, r: SeasRow) => r.lastOwnerName || '-' },
  { title: '进入公海时间', key: 'discardTime', width: 170, render: (_, r: SeasRow) => r.discardTime || '-' },
];

/** /manage/seascustomer: customers of the pools the caller may use; claim one or many, or (with 分配) hand them out. */
export const SeasCustomersPage = () => {
  const { message } = App.useApp();
  const pools = useVisiblePools();
  const reasons = useBaseDiscardReasons();
  const claim = useClaim();
  const canAllot = hasPermission(
    useSession((s) => s.permissions),
    'frontend/customer/allot',
  );
  const [allotIds, setAllotIds] = useState<number[] | null>(null);

  const doClaim = async (ids: number[], onDone?: () => void) => {
    let r: MoveResult;
    try {
      r = await claim.mutateAsync(ids);
    } catch {
      return;
    }
    if (r.failed > 0) message.warning(`成功领取${r.count}个，${r.failed}个未领取：${r.reasons.join('；')}`);
    else message.success('领取成功');
    onDone?.();
  };

  const extraFields = useMemo<SearchField[]>(
    () => [
      {
        kind: 'select',
        name: 'cmHsid',
        label: '所属公海',
        options: (pools.data?.list ?? []).map((p) => ({ value: p.cmHsid, label: p.name })),
      },
      {
        kind: 'select',
        name: 'cmCdid',
        label: '丢弃理由',
        options: [
          ...(reasons.data?.list ?? []).map((r) => ({ value: r.cmCdid, label: r.name })),
          { value: 0, label: '其他/系统回收' },
        ],
      },
    ],
    [pools.data, reasons.data],
  );

  return (
    <>
      <CustomerListView
        kind="seas"
        title="公海客户"
        filters={[
          'name',
          'contactName',
          'contactPhone',
          'cmNid',
          'lastContactStatus',
          'createTime',
          'lastContactTime',
          'contactNum',
        ]}
        columns={['name', 'contactName', 'contactPhone', 'stage', 'lastContact', 'contactNum', 'controls', 'createTime']}
        seas={{
          extraFields,
          extraColumns: COLUMNS,
          rowAction: (row) => (
            <Button type="link" size="small" onClick={() => doClaim([row.cmCtid])}>
              领取
            </Button>
          ),
        }}
        batchActions={(selected, clear) => (
          <>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              disabled={selected.length === 0}
              onClick={() => doClaim(selected, clear)}
            >
              批量领取
            </Button>
            {canAllot && (
              <Button icon={<UserSwitchOutlined />} disabled={selected.length === 0} onClick={() => setAllotIds(selected)}>
                分配
              </Button>
            )}
          </>
        )}
      />
      <AllotModal open={allotIds !== null} cmCtids={allotIds ?? []} onClose={() => setAllotIds(null)} />
    </>
  );
};
