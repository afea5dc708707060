import { PlusOutlined } from '@ant-design/icons';
import { MERCHANT_TYPE_LABEL, type Staff } from '@crm/contracts';
import { App, Button, Card, Col, Form, Input, Row, Select, Space, Switch, Table, type TableColumnsType, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { SearchActions } from '../../../components/SearchActions';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useTablePaging } from '../../../components/useTablePaging';
import { useSession } from '../../../stores/session';
import { useDepartmentTree } from '../../departments/api';
import { useRoles } from '../../roles/api';
import { type StaffFilters, useDeleteStaff, useSetStaffState, useStaffList } from '../api';
import { DepartmentFilterTree } from '../components/DepartmentFilterTree';
import { ResetPasswordModal } from '../components/ResetPasswordModal';
import { StaffFormModal, type StaffFormTarget } from '../components/StaffFormModal';

type SearchValues = { name?: string; cmArid?: number; actionState?: number; merchantType?: number };

const STATE_OPTIONS = [
  { value: 0, label: '可用' },
  { value: 1, label: '禁用' },
];
const MERCHANT_OPTIONS = Object.entries(MERCHANT_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** /account/staff: staff by department, with search, create/edit, enable/disable, reset password, delete. */
export const StaffPage = () => {
  const { message, modal } = App.useApp();
  const [searchForm] = Form.useForm<SearchValues>();
  const myId = useSession((s) => s.userInfo?.cmSid);
  const [cmDid, setCmDid] = useState<number | undefined>();
  const [filters, setFilters] = useState<StaffFilters>({});
  const paging = useTablePaging();
  const { data, isFetching } = useStaffList({ ...filters, cmDid, page: paging.page, limit: paging.limit });
  const departments = useDepartmentTree();
  const roles = useRoles();
  const setState = useSetStaffState();
  const remove = useDeleteStaff();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<StaffFormTarget>();
  const resetModal = useModalTarget<Staff>();

  // After deleting the last row of the last page, step back to the page that still exists.
  const { setPage } = paging;
  useEffect(() => {
    if (data && data.count > 0 && data.list.length === 0) setPage(Math.ceil(data.count / paging.limit));
  }, [data, paging.limit, setPage]);

  const search = (values: SearchValues) => {
    setFilters({ ...values, name: values.name?.trim() });
    paging.resetPage();
  };

  const toggleState = (staff: Staff, isEnabled: boolean) => {
    const run = async () => {
      try {
        await setState.mutateAsync({ cmSid: staff.cmSid, actionState: isEnabled ? 0 : 1 });
      } catch {
        return; // the http client has shown the server's message
      }
      message.success('操作成功');
    };
    if (isEnabled) return run();
    modal.confirm({
      title: '禁用提示',
      content: `确定要禁用员工「${staff.name}」吗？禁用后该员工将无法登录，已登录的设备会立即下线。`,
      okText: '确定',
      cancelText: '取消',
      onOk: run,
    });
  };

  /** Oneself and the company's creator cannot be disabled or deleted (server rule, shown early). */
  const lockReason = (s: Staff) =>
    s.cmSid === myId ? '不能禁用或删除自己的账号' : s.isOwner === 1 ? '企业创建人的账号不能禁用或删除' : undefined;

  const columns: TableColumnsType<Staff> = [
    { title: '账号', dataIndex: 'username', width: 120, fixed: 'left' },
    { title: '姓名', dataIndex: 'name', width: 110 },
    // next to the name: at 1366 px the columns after 角色 are behind the fixed 操作 column
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 110,
      render: (v: number, s) => {
        const reason = lockReason(s);
        return (
          <Tooltip title={reason}>
            <Switch
              checked={v === 0}
              checkedChildren="可用"
              unCheckedChildren="禁用"
              disabled={reason !== undefined && v === 0}
              loading={setState.isPending && setState.variables?.cmSid === s.cmSid}
              onChange={(isEnabled) => toggleState(s, isEnabled)}
            />
          </Tooltip>
        );
      },
    },
    { title: '手机号', dataIndex: 'phone', width: 130 },
    { title: '部门', dataIndex: 'cmDidName', width: 120, render: (v: string) => v || '-' },
    { title: '角色', dataIndex: 'cmAridName', width: 110 },
    { title: '账号类型', dataIndex: 'merchantType', width: 100, render: (v: number) => MERCHANT_TYPE_LABEL[v] ?? '-' },
    { title: '工号', dataIndex: 'workNumber', width: 90, render: (v: string) => v || '-' },
    { title: '到期时间', dataIndex: 'expireTime', width: 170, render: (v: string) => v || '永久' },
    { title: '最后登录时间', dataIndex: 'lastLoginTime', width: 170, render: (v: string) => v || '-' },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, s) => {
        const reason = lockReason(s);
        return (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', staff: s })}>
              编辑
            </Button>
            <Button type="link" size="small" onClick={() => resetModal.open(s)}>
              重置密码
            </Button>
            <Tooltip title={reason}>
              <Button
                type="link"
                size="small"
                danger
                disabled={reason !== undefined}
                onClick={() => confirmDelete(() => remove.mutateAsync(s.cmSid))}
              >
                删除
              </Button>
            </Tooltip>
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <Row gutter={16} wrap={false}>
        <Col flex="220px">
          <Card title="部门" styles={{ body: { padding: 12 } }}>
            <DepartmentFilterTree
              departments={departments.data ?? []}
              isLoading={departments.isLoading}
              value={cmDid}
              onChange={(id) => {
                setCmDid(id);
                paging.resetPage();
              }}
            />
          </Card>
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Card
            title="员工管理"
            extra={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'create' })}>
                新增员工
              </Button>
            }
          >
            <Form name="staffSearch" form={searchForm} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
              <Form.Item name="name">
                <Input placeholder="姓名/账号/手机号/工号" allowClear maxLength={20} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item name="cmArid">
                <Select
                  placeholder="角色"
                  allowClear
                  style={{ width: 150 }}
                  options={roles.data?.list.map((r) => ({ value: r.cmArid, label: r.name }))}
                />
              </Form.Item>
              <Form.Item name="actionState">
                <Select placeholder="状态" allowClear style={{ width: 110 }} options={STATE_OPTIONS} />
              </Form.Item>
              <Form.Item name="merchantType">
                <Select placeholder="账号类型" allowClear style={{ width: 120 }} options={MERCHANT_OPTIONS} />
              </Form.Item>
              <SearchActions
                onReset={() => {
                  searchForm.resetFields();
                  search({});
                }}
              />
            </Form>
            <Table<Staff>
              rowKey="cmSid"
              columns={columns}
              dataSource={data?.list}
              loading={isFetching}
              scroll={{ x: 1420 }}
              pagination={paging.pagination(data?.count ?? 0)}
            />
          </Card>
        </Col>
      </Row>
      <StaffFormModal
        key={formModal.openKey}
        isOpen={formModal.isOpen}
        target={formModal.target}
        departments={departments.data ?? []}
        roles={roles.data?.list ?? []}
        onClose={formModal.close}
      />
      <ResetPasswordModal
        key={resetModal.openKey}
        isOpen={resetModal.isOpen}
        staff={resetModal.target}
        onClose={resetModal.close}
      />
    </>
  );
};
