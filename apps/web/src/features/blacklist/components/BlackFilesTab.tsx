/** 黑名单文件: the imported number files (search, import, switch on/off, delete) and the numbers of one file. */
import { UploadOutlined } from '@ant-design/icons';
import {
  BLACK_FILE_STATE_LABEL,
  BLACK_LIMITS,
  type BlackFile,
  type BlackFileListQuery,
  type BlackNumber,
  type UploadResult,
} from '@crm/contracts';
import { App, Button, Drawer, Empty, Form, Input, Space, Switch, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { PhoneSearch } from '../../../components/PhoneSearch';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { SearchField, SearchValues } from '../../../components/SearchBar/types';
import { SmallFormModal } from '../../../components/SmallFormModal';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useTablePaging } from '../../../components/useTablePaging';
import { useBlackFiles, useBlackNumbers, useCreateBlackFile, useDeleteBlackFile, useEditBlackFile } from '../api';
import { NumberFileInput } from './NumberFileInput';

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
  const [form] = Form.useForm<ImportValues>();
  const create = useCreateBlackFile();
  return (
    <SmallFormModal
      title="导入黑名单"
      okText="导入"
      isOpen={isOpen}
      onClose={onClose}
      form={form}
      initialValues={{ name: '', file: null }}
      isPending={create.isPending}
      save={async (v) => {
        if (!v.file) throw new Error('no file'); // the field's rule asks for it
        await create.mutateAsync({ name: v.name.trim(), fileId: v.file.id });
      }}
      doneText="导入成功"
    >
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
    </SmallFormModal>
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
      <PhoneSearch onSearch={setPhone} paging={paging} style={{ marginBottom: 12 }} />
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

export const BlackFilesTab = () => {
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
