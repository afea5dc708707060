import {
  AccountBookOutlined,
  CloudUploadOutlined,
  DownloadOutlined,
  EditOutlined,
  PayCircleOutlined,
  PlusOutlined,
  ShoppingCartOutlined,
} from '@ant-design/icons';
import { CONTACT_STATUS_LABEL, type CompanyModule, type CustomerDetail, MODULE_OFF_TEXT } from '@crm/contracts';
import { Alert, App, Button, Descriptions, Drawer, Empty, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { relativeTime } from '../../../../components/relativeTime';
import { ContactsPanel } from '../../../contacts/components/ContactsPanel';
import { FollowPanel } from '../../../follow-ups/components/FollowPanel';
import { OrderFormModal } from '../../../orders/components/OrderFormModal';
import { OrdersTab } from '../../../orders/components/OrdersTab';
import { useClaim } from '../../../pools/api';
import { DiscardDialog } from '../../../pools/components/DiscardDialog';
import { PlanFormModal } from '../../../receipts/components/PlanFormModal';
import { ReceiptFormModal } from '../../../receipts/components/ReceiptFormModal';
import { ReceiptTab } from '../../../receipts/components/ReceiptTab';
import { WorkOrdersTab } from '../../../workorders/components/WorkOrdersTab';
import { useCustomerInfo } from '../../templates-api';
import { CustomerFormModal } from '../CustomerFormModal';
import styles from './CustomerDetailDrawer.module.css';
import { TagAddModal } from './TagAddModal';

type Props = {
  cmCtid: number | null;
  onClose: () => void;
  /** 'seas': opened from a shared pool, where the tags section is hidden (SPEC §2) */
  view?: 'private' | 'seas';
};

const valueText = (v: { dmValue: string[]; dmValueText: string[]; dmType: number }) => {
  const parts = v.dmValueText.some((x) => x) ? v.dmValueText : v.dmValue;
  return parts.join(v.dmType === 11 || v.dmType === 15 || v.dmType === 24 ? ' / ' : '、') || '-';
};

/** 基本信息: the template controls with their values, then the record's own facts. */
const BasicInfo = ({ c }: { c: CustomerDetail }) => (
  <Descriptions column={2} size="small" bordered styles={{ label: { width: 120 } }}>
    <Descriptions.Item label="客户名称" span={2}>
      {c.name || '未命名'}
    </Descriptions.Item>
    {c.templateControls.map((v) => (
      <Descriptions.Item key={v.cbTacid} label={v.name} span={v.dmType === 1 ? 2 : 1}>
        {v.fileUrls ? (
          <Space wrap>
            {v.fileUrls.map((url, i) => (
              <Typography.Link key={url || i} href={url} target="_blank">
                {v.dmValueText[i] || '附件'}
              </Typography.Link>
            ))}
          </Space>
        ) : (
          <span style={{ whiteSpace: 'pre-wrap' }}>{valueText(v)}</span>
        )}
      </Descriptions.Item>
    ))}
    <Descriptions.Item label="负责人">{c.ownerName || '-'}</Descriptions.Item>
    <Descriptions.Item label="所属部门">{c.cmDidName || '-'}</Descriptions.Item>
    <Descriptions.Item label="创建人">{c.creatorName || '-'}</Descriptions.Item>
    <Descriptions.Item label="创建时间">{c.createTime || '-'}</Descriptions.Item>
    <Descriptions.Item label="最近跟进">{relativeTime(c.followTime)}</Descriptions.Item>
    <Descriptions.Item label="下次跟进">{c.nextFollowTime || '-'}</Descriptions.Item>
    <Descriptions.Item label="联系状态">{CONTACT_STATUS_LABEL[c.lastContactStatus] ?? '-'}</Descriptions.Item>
    <Descriptions.Item label="联系次数">{c.contactNum}</Descriptions.Item>
  </Descriptions>
);

/** A module the company switched off keeps its tab but shows the SPEC alert instead of its list (issue 14). */
const ModuleOff = ({ module }: { module: CompanyModule }) => (
  <Alert type="info" showIcon title={MODULE_OFF_TEXT[module]} data-testid={`module-off-${module}`} />
);

/** Tags: shown read-only; 编辑 turns on edit mode, where tags can be removed or added by group (SPEC §2). */
const TagsSection = ({ c, canEdit }: { c: CustomerDetail; canEdit: boolean }) => {
  const [isEditing, setEditing] = useState(false);
  const [isAddOpen, setAddOpen] = useState(false);
  return (
    <div className={styles.tags}>
      <Typography.Text type="secondary">标签：</Typography.Text>
      {c.cmClidsInfo.length === 0 && !isEditing && <Typography.Text type="secondary">暂无标签</Typography.Text>}
      {c.cmClidsInfo.map((t) => (
        <Tag key={t.cmClid} color="geekblue">
          {t.name}
        </Tag>
      ))}
      {canEdit &&
        (isEditing ? (
          <>
            <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
              添加标签
            </Button>
            <Button size="small" type="link" onClick={() => setEditing(false)}>
              完成
            </Button>
          </>
        ) : (
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            编辑
          </Button>
        ))}
      <TagAddModal open={isAddOpen} cmCtid={c.cmCtid} current={c.cmClids} onClose={() => setAddOpen(false)} />
    </div>
  );
};

/**
 * The customer detail (SPEC §2): a left action bar, the tags and the tabs, each shown only when
 * the caller's detail flag allows it (SPEC §6). Opened from every customer list, and by URL.
 */
export const CustomerDetailDrawer = ({ cmCtid, onClose, view = 'private' }: Props) => {
  const info = useCustomerInfo(cmCtid ?? undefined, cmCtid !== null);
  const { message } = App.useApp();
  const [isEditOpen, setEditOpen] = useState(false);
  const [isDiscardOpen, setDiscardOpen] = useState(false);
  const [isOrderOpen, setOrderOpen] = useState(false);
  const [isPlanOpen, setPlanOpen] = useState(false);
  const [isReceiptOpen, setReceiptOpen] = useState(false);
  const claim = useClaim();
  const [tab, setTab] = useState<string | undefined>(undefined);
  const c = info.data;
  const f = c?.detailFlags;
  const on = c?.modules ?? { order: true, receipt: true, work: true };

  const tabs = c
    ? [
        f?.basic ? { key: 'basic', label: '基本信息', children: <BasicInfo c={c} /> } : null,
        f?.phone ? { key: 'phone', label: '联系电话', children: <ContactsPanel cmCtid={c.cmCtid} /> } : null,
        f?.follow ? { key: 'follow', label: '跟进记录', children: <FollowPanel customer={c} /> } : null,
        f?.order
          ? { key: 'order', label: '订单', children: on.order ? <OrdersTab cmCtid={c.cmCtid} /> : <ModuleOff module="order" /> }
          : null,
        f?.receipt
          ? {
              key: 'receipt',
              label: '回款',
              children: on.receipt ? (
                <ReceiptTab customerId={c.cmCtid} canPlan={f.cMoney === 1} canReceipt={f.cReceipt === 1} />
              ) : (
                <ModuleOff module="receipt" />
              ),
            }
          : null,
        f?.work
          ? {
              key: 'work',
              label: '工单',
              children: on.work ? <WorkOrdersTab customerId={c.cmCtid} /> : <ModuleOff module="work" />,
            }
          : null,
      ].filter((x) => x !== null)
    : [];
  const activeTab = tab && tabs.some((t) => t.key === tab) ? tab : (tabs.find((t) => t.key === 'follow') ?? tabs[0])?.key;

  return (
    <Drawer
      open={cmCtid !== null}
      onClose={onClose}
      width={1040}
      destroyOnHidden
      afterOpenChange={(open) => {
        if (!open) setTab(undefined);
      }}
      title={
        c ? (
          <Space size={8}>
            <span>{c.name || '未命名'}</span>
            {c.cmNidName && <Tag color="blue">{c.cmNidName}</Tag>}
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
              负责人：{c.ownerName || '-'}　最近跟进：{relativeTime(c.followTime)}
            </Typography.Text>
          </Space>
        ) : (
          '客户详情'
        )
      }
    >
      {info.isError ? (
        <Result status="warning" title="无法查看该客户" subTitle="客户不存在、已被删除，或不在您的数据范围内" />
      ) : !c ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <div className={styles.body}>
          <div className={styles.actions}>
            {f?.cOrder === 1 && on.order && view !== 'seas' && c.ownerId !== null && (
              <Button type="primary" icon={<ShoppingCartOutlined />} block onClick={() => setOrderOpen(true)}>
                新建订单
              </Button>
            )}
            {f?.cMoney === 1 && on.receipt && view !== 'seas' && (
              <Button icon={<AccountBookOutlined />} block onClick={() => setPlanOpen(true)}>
                新建回款计划
              </Button>
            )}
            {f?.cReceipt === 1 && on.receipt && view !== 'seas' && (
              <Button icon={<PayCircleOutlined />} block onClick={() => setReceiptOpen(true)}>
                新建回款
              </Button>
            )}
            {f?.edit === 1 && view !== 'seas' && (
              <Button icon={<EditOutlined />} block onClick={() => setEditOpen(true)}>
                编辑资料
              </Button>
            )}
            {f?.discard === 1 && c.ownerId !== null && (
              <Button icon={<CloudUploadOutlined />} block onClick={() => setDiscardOpen(true)}>
                丢入公海
              </Button>
            )}
            {view === 'seas' && c.ownerId === null && c.claimBlockedUntil && (
              // issue 23: the former owner is not offered 领取 during the pool's cooldown
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                您是原负责人，{c.claimBlockedUntil} 之后可重新领取
              </Typography.Text>
            )}
            {view === 'seas' && c.ownerId === null && !c.claimBlockedUntil && (
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                block
                loading={claim.isPending}
                onClick={async () => {
                  try {
                    await claim.mutateAsync([c.cmCtid]);
                  } catch {
                    return;
                  }
                  message.success('领取成功');
                  onClose();
                }}
              >
                领取
              </Button>
            )}
          </div>
          <div className={styles.main}>
            {view !== 'seas' && <TagsSection c={c} canEdit={f?.edit === 1} />}
            {tabs.length === 0 ? (
              <Empty description="您的角色没有查看客户详情的权限，请联系管理员" />
            ) : (
              <Tabs activeKey={activeTab} onChange={setTab} items={tabs} />
            )}
          </div>
        </div>
      )}
      {c && <CustomerFormModal open={isEditOpen} mode="edit" cmCtid={c.cmCtid} onClose={() => setEditOpen(false)} />}
      {c && (
        <OrderFormModal
          open={isOrderOpen}
          // a masked number is not a contact phone: the seller types it
          customer={{ cmCtid: c.cmCtid, name: c.name, phone: c.contactPhone.includes('*') ? '' : c.contactPhone }}
          onClose={() => setOrderOpen(false)}
        />
      )}
      {c && <PlanFormModal open={isPlanOpen} customerId={c.cmCtid} onClose={() => setPlanOpen(false)} />}
      {c && <ReceiptFormModal open={isReceiptOpen} customerId={c.cmCtid} onClose={() => setReceiptOpen(false)} />}
      {c && <DiscardDialog open={isDiscardOpen} cmCtids={[c.cmCtid]} onClose={() => setDiscardOpen(false)} onDone={onClose} />}
    </Drawer>
  );
};
