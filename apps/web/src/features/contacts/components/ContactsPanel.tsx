import { CopyOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { CONTACT_SOURCE_LABEL, CONTACT_TYPE_LABEL, type Contact, FOLLOW_LIMITS, KP_TYPE_LABEL } from '@crm/contracts';
import { App, Button, Empty, Flex, Form, Input, Select, Space, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { SearchActions } from '../../../components/SearchActions';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { DialButton } from '../../../phone/components/DialButton';
import { type ContactListQuery, isTemplateNumber, useContacts, useDeleteContact, useRevealPhone } from '../api';
import { ContactFormModal, type ContactFormTarget } from './ContactFormModal';

type Filters = Omit<ContactListQuery, 'page' | 'limit'>;

const KP_TYPE_OPTIONS = Object.entries(KP_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));
const KP_TYPE_COLOR: Record<number, string> = { 1: 'red', 3: 'orange', 4: 'blue' };
const RECOMMEND_OPTIONS = [
  { value: 1, label: '是' },
  { value: 0, label: '否' },
];
const PAGE_SIZE = FOLLOW_LIMITS.contactPageSize; // SPEC §9: contact list 20

/** A template number has no ccId, an added one no cbTacid: the key tells them apart. */
const rowKeyOf = (c: Contact) => (isTemplateNumber(c) ? `t${c.cbTacid}` : `c${c.ccId}`);

type PhoneCellProps = {
  contact: Contact;
  revealedNo: string | undefined;
  isRevealing: boolean;
  onReveal: () => void;
  onCopy: (phone: string) => void;
};

/** SPEC §6: a masked number gets an eye that reveals it; a readable one a copy button. */
const PhoneCell = ({ contact, revealedNo, isRevealing, onReveal, onCopy }: PhoneCellProps) => {
  const isMasked = contact.encryptPhone === 1 && revealedNo === undefined;
  const phone = revealedNo ?? contact.contactNo;
  return (
    <Space size={2}>
      <span style={{ fontVariantNumeric: 'tabular-nums' }}>{phone}</span>
      {isMasked ? (
        <Tooltip title="查看完整号码">
          <Button
            type="text"
            size="small"
            aria-label="查看完整号码"
            icon={<EyeOutlined />}
            loading={isRevealing}
            onClick={onReveal}
          />
        </Tooltip>
      ) : (
        <Tooltip title="复制号码">
          <Button type="text" size="small" aria-label="复制号码" icon={<CopyOutlined />} onClick={() => onCopy(phone)} />
        </Tooltip>
      )}
    </Space>
  );
};

/**
 * The 联系电话 tab of the customer detail (SPEC §2): the customer's template phone numbers,
 * then the numbers added here, with filters, reveal, copy, add, edit and delete.
 * Keyed by customer, so filters, page and revealed numbers never leak to the next customer.
 */
export const ContactsPanel = ({ cmCtid }: { cmCtid: number }) => <ContactsPanelBody key={cmCtid} cmCtid={cmCtid} />;

const ContactsPanelBody = ({ cmCtid }: { cmCtid: number }) => {
  const { message } = App.useApp();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const { data, isFetching } = useContacts(cmCtid, { ...filters, page, limit: PAGE_SIZE });
  const reveal = useRevealPhone();
  const remove = useDeleteContact(cmCtid);
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<ContactFormTarget>();
  // Revealed numbers stay in state: each reveal counts against the daily limit (SPEC §6).
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [revealing, setRevealing] = useState<ReadonlySet<string>>(new Set());

  // After deleting the last row of the last page, step back to the page that still exists.
  useEffect(() => {
    if (data && data.count > 0 && data.list.length === 0) setPage(Math.ceil(data.count / PAGE_SIZE));
  }, [data]);

  const search = (values: Filters) => {
    setFilters({ ...values, contactNo: values.contactNo?.trim() || undefined });
    setPage(1);
  };

  const revealRow = async (c: Contact) => {
    const key = rowKeyOf(c);
    setRevealing((s) => new Set(s).add(key));
    try {
      const result = await reveal.mutateAsync(c);
      setRevealed((r) => ({ ...r, [key]: result.phone }));
      if (typeof result.remaining === 'number') message.success(`已显示完整号码，今日还可查看 ${result.remaining} 次`);
    } catch {
      // the http client has shown the server's message (daily limit reached, number gone)
    } finally {
      setRevealing((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    }
  };

  const copy = async (phone: string) => {
    try {
      await navigator.clipboard.writeText(phone);
      message.success('复制成功！');
    } catch {
      message.error('复制失败，请手动复制');
    }
  };

  /** A number changed in the edit modal makes the revealed one stale. */
  const onSaved = (contactNo: string) => {
    const target = formModal.target;
    if (target?.mode !== 'edit' || target.contactNo === contactNo) return;
    const key = rowKeyOf(target.contact);
    setRevealed(({ [key]: _stale, ...rest }) => rest);
  };

  const columns: TableColumnsType<Contact> = [
    { title: '联系人', dataIndex: 'contactPerson', width: 80, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: '号码',
      dataIndex: 'contactNo',
      width: 140,
      render: (_, c) => (
        <PhoneCell
          contact={c}
          revealedNo={revealed[rowKeyOf(c)]}
          isRevealing={revealing.has(rowKeyOf(c))}
          onReveal={() => revealRow(c)}
          onCopy={copy}
        />
      ),
    },
    { title: '类型', dataIndex: 'contactType', width: 56, render: (v: number) => CONTACT_TYPE_LABEL[v] ?? '-' },
    { title: '职位', dataIndex: 'contactPosition', width: 80, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: '热度',
      dataIndex: 'kpType',
      width: 84,
      render: (v: number) =>
        KP_TYPE_COLOR[v] ? <Tag color={KP_TYPE_COLOR[v]}>{KP_TYPE_LABEL[v]}</Tag> : (KP_TYPE_LABEL[v] ?? '-'),
    },
    {
      title: '推荐',
      dataIndex: 'recommend',
      width: 56,
      render: (v: number) => (v === 1 ? <Tag color="green">是</Tag> : '否'),
    },
    { title: '来源', dataIndex: 'sourceType', width: 80, render: (v: number) => CONTACT_SOURCE_LABEL[v] ?? '-' },
    { title: '添加时间', dataIndex: 'createTime', width: 156, render: (v: string) => v || '-' },
    {
      title: '操作',
      key: 'actions',
      width: 160,
      fixed: 'right',
      // 拨打 names the number by its control or contact id, so a masked number can be dialled (DESIGN §4).
      render: (_, c) =>
        isTemplateNumber(c) ? (
          <Space size={0}>
            <DialButton target={{ cmCtid: c.cmCtid, cbTacid: c.cbTacid }} />
            <Tooltip title="该号码来自客户资料，请在编辑客户中修改">
              <span style={{ color: 'var(--ant-color-text-quaternary)', paddingInline: 8 }}>-</span>
            </Tooltip>
          </Space>
        ) : (
          <Space size={0}>
            <DialButton target={{ cmCtid: c.cmCtid, ccId: c.ccId }} />
            <Button
              type="link"
              size="small"
              onClick={() => formModal.open({ mode: 'edit', contact: c, contactNo: revealed[rowKeyOf(c)] ?? c.contactNo })}
            >
              编辑
            </Button>
            <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync(c.ccId))}>
              删除
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <>
      <Flex justify="space-between" align="flex-start" gap={12} wrap style={{ marginBottom: 12 }}>
        <Form name={`contactFilter-${cmCtid}`} form={filterForm} layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="contactNo">
            <Input placeholder="号码" allowClear maxLength={20} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="kpType">
            <Select placeholder="热度" allowClear options={KP_TYPE_OPTIONS} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="recommend">
            <Select placeholder="推荐" allowClear options={RECOMMEND_OPTIONS} style={{ width: 100 }} />
          </Form.Item>
          <SearchActions
            style={{ marginInlineEnd: 0 }}
            onReset={() => {
              filterForm.resetFields();
              search({});
            }}
          />
        </Form>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'create' })}>
          添加电话
        </Button>
      </Flex>
      <Table<Contact>
        rowKey={rowKeyOf}
        size="small"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 892 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无联系电话" /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data?.count ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPage,
        }}
      />
      <ContactFormModal
        key={formModal.openKey}
        cmCtid={cmCtid}
        isOpen={formModal.isOpen}
        target={formModal.target}
        onClose={formModal.close}
        onSaved={onSaved}
      />
    </>
  );
};
