import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  BLACK_FILE_STATE_LABEL,
  BLACK_LIMITS,
  type BlackFile,
  type BlackFileListQuery,
  type BlackNumber,
  type UploadResult,
} from '@crm/contracts';
import { App, Button, Card, Drawer, Empty, Form, Input, Modal, Space, Switch, Table, type TableColumnsType, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { ListSearch } from '../../../components/ListSearch';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { SearchField, SearchValues } from '../../../components/SearchBar/types';
import { useButtonLock } from '../../../components/useButtonLock';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useTablePaging } from '../../../components/useTablePaging';
import {
  useBlackFiles,
  useBlackNumbers,
  useCreateBlackFile,
  useCreateBlackNumber,
  useDeleteBlackFile,
  useDeleteBlackNumbers,
  useEditBlackFile,
} from '../api';
import { NumberFileInput } from '../components/NumberFileInput';

const FILE_FIELDS: SearchField[] = [
  { kind: 'text', name: 'name', label: '名称', maxLength: BLACK_LIMITS.name },
  {
    kind: 'select',
    name: 'dmState',
    label: '状态',
    options: Object.entries(BLACK_FILE_STATE_LABEL).map(([value, label]) => ({ value: Number(value), label })),
  },
  { kind: 'dateRange', name: 'createTime', label: '导入时间' },
];

type ImportValues = { name: string; file: UploadResult | null };

const ImportModal = ({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<ImportValues>();
  const create = useCreateBlackFile();
  const [submit, isLocked] = useButtonLock(async () => {
    let v: ImportValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (!v.file) return;
    try {
      await create.mutateAsync({ name: v.name.trim(), fileId: v.file.id });
    } catch {
      return;
    }
    message.success('导入成功');
    onClose();
  });
  return (
    <Modal
      title="导入黑名单"
      open={isOpen}
      onCancel={onClose}
      onOk={() => submit()}
      confirmLoading={isLocked || create.isPending}
      okText="导入"
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} preserve={false} labelCol={{ span: 4 }} initialValues={{ name: '', file: null }}>
        <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: '请输入名称' }]}>
          <Input maxLength={BLACK_LIMITS.name} placeholder="如 投诉号码 2024-05" />
        </Form.Item>
        <Form.Item
          name="file"
          label="号码文件"
          rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error('请上传号码文件'))) }]}
          extra="支持 .xlsx（读取第一个工作表的所有单元格）和 .txt（每行一个号码），单个文件最多 20 万个号码"
        >
          <NumberFileInput />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** The numbers of one file, in a drawer. */
const FileNumbersDrawer = ({ file, onClose }: { file: BlackFile | null; onClose: () => void }) => {
  const [phone, setPhone] = useState('');
  const paging = useTablePaging(20);
  const { data, isFetching } = useBlackNumbers(
    { cmBfid: file?.cmBfid, phone: phone || undefined, page: paging.page, limit: paging.limit },
    file !== null,
  );
  return (
    <Drawer title={file ? `号码 · ${file.name}` : '号码'} open={file !== null} onClose={onClose} width={560} destroyOnHidden>
      <ListSearch
        placeholder="搜索号码"
        maxLength={20}
        width={240}
        style={{ marginBottom: 12 }}
        onSearch={(v) => {
          setPhone(v);
          paging.resetPage();
        }}
      />
      <Table<BlackNumber>
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data?.list}
        columns={[
          { title: '号码', dataIndex: 'phone' },
          { title: '导入时间', dataIndex: 'createTime', width: 180 },
        ]}
        pagination={paging.pagination(data?.count ?? 0)}
      />
    </Drawer>
  );
};

const FilesTab = () => {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Partial<BlackFileListQuery>>({});
  const paging = useTablePaging(20);
  const query = useMemo(() => ({ ...filters, page: paging.page, limit: paging.limit }), [filters, paging.page, paging.limit]);
  const { data, isFetching } = useBlackFiles(query);
  const edit = useEditBlackFile();
  const remove = useDeleteBlackFile();
  const confirmDelete = useConfirmDelete();
  const [isImportOpen, setImportOpen] = useState(false);
  const [viewing, setViewing] = useState<BlackFile | null>(null);

  const onSearch = (v: SearchValues) => {
    const range = v.createTime as [string, string] | undefined;
    setFilters({
      name: v.name as string | undefined,
      dmState: v.dmState as number | undefined,
      createStartTime: range?.[0],
      createEndTime: range?.[1],
    });
    paging.resetPage();
  };

  const toggle = async (f: BlackFile, isOn: boolean) => {
    try {
      await edit.mutateAsync({ cmBfid: f.cmBfid, name: f.name, dmState: isOn ? 0 : 1 });
    } catch {
      return;
    }
    message.success('操作成功');
  };

  const columns: TableColumnsType<BlackFile> = [
    { title: '名称', dataIndex: 'name', ellipsis: true },
    { title: '号码数', dataIndex: 'numberCount', width: 100, align: 'right' },
    { title: '无效行', dataIndex: 'invalidCount', width: 90, align: 'right' },
    {
      title: '状态',
      dataIndex: 'dmState',
      width: 100,
      render: (v: number, f) => (
        <Switch
          aria-label={`${f.name}状态`}
          checked={v === 0}
          checkedChildren="启用"
          unCheckedChildren="停用"
          loading={edit.isPending && edit.variables?.cmBfid === f.cmBfid}
          onChange={(on) => toggle(f, on)}
        />
      ),
    },
    { title: '导入人', dataIndex: 'cmSidName', width: 100 },
    { title: '导入时间', dataIndex: 'createTime', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      render: (_, f) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(f)}>
            查看号码
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync({ cmBfid: f.cmBfid }))}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <SearchBar
        name="blackFileSearch"
        fields={FILE_FIELDS}
        onSearch={onSearch}
        addButton={
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
            导入黑名单
          </Button>
        }
      />
      <Table<BlackFile>
        style={{ marginTop: 16 }}
        rowKey="cmBfid"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无黑名单文件，点击「导入黑名单」上传 .xlsx 或 .txt 号码文件" /> }}
      />
      <ImportModal isOpen={isImportOpen} onClose={() => setImportOpen(false)} />
      <FileNumbersDrawer file={viewing} onClose={() => setViewing(null)} />
    </>
  );
};

type NumberValues = { phone: string; remark: string };

const ManualTab = () => {
  const { message } = App.useApp();
  const [form] = Form.useForm<NumberValues>();
  const [phone, setPhone] = useState('');
  const paging = useTablePaging(20);
  const { data, isFetching } = useBlackNumbers({ cmBfid: 0, phone: phone || undefined, page: paging.page, limit: paging.limit });
  const create = useCreateBlackNumber();
  const remove = useDeleteBlackNumbers();
  const confirmDelete = useConfirmDelete();
  const [selected, setSelected] = useState<number[]>([]);
  const [isAddOpen, setAddOpen] = useState(false);

  const [submit, isLocked] = useButtonLock(async () => {
    let v: NumberValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await create.mutateAsync({ phone: v.phone.trim(), remark: (v.remark ?? '').trim() });
    } catch {
      return;
    }
    message.success('添加成功');
    setAddOpen(false);
  });

  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <ListSearch
          placeholder="搜索号码"
          maxLength={20}
          width={240}
          onSearch={(v) => {
            setPhone(v);
            paging.resetPage();
          }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
          添加号码
        </Button>
        <Button
          danger
          disabled={selected.length === 0}
          onClick={() =>
            confirmDelete(async () => {
              await remove.mutateAsync({ ids: selected });
              setSelected([]);
            }, `确定要删除选中的 ${selected.length} 个号码吗？`)
          }
        >
          批量删除
        </Button>
      </Space>
      <Table<BlackNumber>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        columns={[
          { title: '号码', dataIndex: 'phone', width: 180 },
          { title: '备注', dataIndex: 'remark', render: (v: string) => v || '-' },
          { title: '添加人', dataIndex: 'cmSidName', width: 100 },
          { title: '添加时间', dataIndex: 'createTime', width: 170 },
          {
            title: '操作',
            key: 'actions',
            width: 80,
            render: (_, n) => (
              <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync({ ids: [n.id] }))}>
                删除
              </Button>
            ),
          },
        ]}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无手动添加的号码" /> }}
      />
      <Modal
        title="添加黑名单号码"
        open={isAddOpen}
        onCancel={() => setAddOpen(false)}
        onOk={() => submit()}
        confirmLoading={isLocked}
        okText="添加"
        cancelText="取消"
        destroyOnHidden
      >
        <Form form={form} preserve={false} labelCol={{ span: 4 }}>
          <Form.Item
            name="phone"
            label="号码"
            rules={[
              { required: true, whitespace: true, message: '请输入电话号码' },
              { pattern: /^[\d+\- ]{3,20}$/, message: '请输入正确的电话号码' },
            ]}
          >
            <Input maxLength={20} placeholder="手机号或固话" />
          </Form.Item>
          <Form.Item name="remark" label="备注">
            <Input.TextArea maxLength={BLACK_LIMITS.remark} showCount rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};

/** /blacklist/Index: blacklist files (import, switch on/off) and manual entries; blacklisted numbers cannot be dialled. */
export const BlacklistPage = () => (
  <Card title="黑名单号码">
    <Tabs
      items={[
        { key: 'files', label: '黑名单文件', children: <FilesTab /> },
        { key: 'manual', label: '手动添加', children: <ManualTab /> },
      ]}
    />
  </Card>
);
