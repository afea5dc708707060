import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { CONTACT_STATUS_LABEL, type CompanyModule, type CustomerDetail, MODULE_OFF_TEXT } from '@crm/contracts';
import { Alert, Button, Descriptions, Drawer, Empty, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  type CustomerDetailAction,
  type CustomerDetailActionProps,
  type CustomerDetailTab,
  useCustomerParts,
} from '../../../../components/customer-parts/registry';
import { relativeTime } from '../../../../components/relativeTime';
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
const BasicInfo = ({ customer: c }: { customer: CustomerDetail }) => (
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

/** 编辑资料: the customer's own form. */
const EditAction = ({ customer: c, view }: CustomerDetailActionProps) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {c.detailFlags.edit === 1 && view !== 'seas' && (
        <Button icon={<EditOutlined />} block onClick={() => setOpen(true)}>
          编辑资料
        </Button>
      )}
      <CustomerFormModal open={isOpen} mode="edit" cmCtid={c.cmCtid} onClose={() => setOpen(false)} />
    </>
  );
};

/** The drawer's own tab and action; the other features' ones come from the registry (app/customerParts.ts). */
const OWN_TABS: CustomerDetailTab[] = [{ key: 'basic', label: '基本信息', order: 10, flag: 'basic', Panel: BasicInfo }];
const OWN_ACTIONS: CustomerDetailAction[] = [{ key: 'edit', order: 40, Action: EditAction }];
const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

/**
 * The customer detail (SPEC §2): a left action bar, the tags and the tabs, each shown only when
 * the caller's detail flag allows it (SPEC §6). Opened from every customer list, and by URL.
 */
export const CustomerDetailDrawer = ({ cmCtid, onClose, view = 'private' }: Props) => {
  const info = useCustomerInfo(cmCtid ?? undefined, cmCtid !== null);
  const parts = useCustomerParts();
  const [tab, setTab] = useState<string | undefined>(undefined);
  const c = parts && info.data;
  const actions = parts ? [...OWN_ACTIONS, ...parts.actions].sort(byOrder) : [];

  const tabs = c
    ? [...OWN_TABS, ...(parts?.tabs ?? [])]
        .sort(byOrder)
        .filter((t) => c.detailFlags[t.flag])
        .map(({ key, label, module, Panel }) => ({
          key,
          label,
          children: module && !c.modules[module] ? <ModuleOff module={module} /> : <Panel customer={c} />,
        }))
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
            {actions.map(({ key, Action }) => (
              <Action key={key} customer={c} view={view} onClose={onClose} />
            ))}
          </div>
          <div className={styles.main}>
            {view !== 'seas' && <TagsSection c={c} canEdit={c.detailFlags.edit === 1} />}
            {tabs.length === 0 ? (
              <Empty description="您的角色没有查看客户详情的权限，请联系管理员" />
            ) : (
              <Tabs activeKey={activeTab} onChange={setTab} items={tabs} />
            )}
          </div>
        </div>
      )}
    </Drawer>
  );
};
