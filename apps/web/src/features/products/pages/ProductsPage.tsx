import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { PRODUCT_STATUS_LABEL, type Product } from '@crm/contracts';
import { App, Button, Card, Col, Form, Input, Row, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { SearchActions } from '../../../components/SearchActions';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useTablePaging } from '../../../components/useTablePaging';
import { useDeleteProducts, useProductList, useSetProductStatus } from '../api';
import { CategoryTree } from '../components/CategoryTree';
import { ProductFormModal } from '../components/ProductFormModal';
import { ProductImportModal } from '../components/ProductImportModal';
import { priceRangeText } from '../components/variants';

type SearchValues = { keyword?: string; status?: number };

const variantsText = (p: Product) =>
  p.specifications.length === 0 ? '-' : `${p.specifications.map((s) => s.name).join('×')}（${p.detailed.length}个）`;

/** 产品管理: the category tree, the catalogue with search, status, create/edit, 上架/下架, delete and import. */
export const ProductsPage = () => {
  const { message, modal } = App.useApp();
  const [searchForm] = Form.useForm<SearchValues>();
  const [filters, setFilters] = useState<SearchValues>({});
  const [pcid, setPcid] = useState<number | undefined>();
  const paging = useTablePaging();
  const list = useProductList({ ...filters, pcid, page: paging.page, limit: paging.limit });
  const setStatus = useSetProductStatus();
  const remove = useDeleteProducts();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<Product | null>();
  const [isImportOpen, setImportOpen] = useState(false);

  const toggle = (p: Product) => {
    const next = p.status === 1 ? 0 : 1;
    const run = async () => {
      try {
        await setStatus.mutateAsync({ ids: [p.id], status: next });
      } catch {
        return;
      }
      message.success('操作成功');
    };
    if (next === 1) return run();
    modal.confirm({
      title: '下架提示',
      content: `确定要下架「${p.name}」吗？下架后新建订单时不能再选择该产品。`,
      okText: '确定',
      cancelText: '取消',
      onOk: run,
    });
  };

  const columns: TableColumnsType<Product> = [
    { title: '产品编号', dataIndex: 'code', width: 100, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: '产品名称',
      dataIndex: 'name',
      ellipsis: true,
      render: (v: string, p) => (
        <>
          {p.status !== 1 && <Tag>{PRODUCT_STATUS_LABEL[p.status] ?? '下架'}</Tag>}
          <Typography.Link onClick={() => formModal.open(p)}>{v}</Typography.Link>
        </>
      ),
    },
    { title: '分类', dataIndex: 'category_name', width: 90, render: (v: string) => v || '未分类' },
    { title: '规格', key: 'specs', width: 120, render: (_, p) => variantsText(p) },
    {
      title: '价格(元)',
      key: 'prices',
      width: 200,
      render: (_, p) => (
        <div style={{ lineHeight: 1.5, fontSize: 13 }}>
          <div>售价 {priceRangeText(p)}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            最低 {priceRangeText(p, 'minimum_price')}
            <br />
            成本 {priceRangeText(p, 'cost')}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      // 编辑 上架/下架 删除 fit without spilling past the table's edge (it scrolled sideways at 1366 px)
      width: 160,
      fixed: 'right',
      render: (_, p) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open(p)}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => toggle(p)}>
            {p.status === 1 ? '下架' : '上架'}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            onClick={() => confirmDelete(() => remove.mutateAsync({ ids: [p.id] }), `确定要删除产品「${p.name}」吗？`)}
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];

  const search = (values: SearchValues) => {
    setFilters({ keyword: values.keyword?.trim(), status: values.status });
    paging.resetPage();
  };

  return (
    <Row gutter={16} wrap={false}>
      <Col flex="220px">
        <CategoryTree
          selected={pcid}
          onSelect={(id) => {
            setPcid(id);
            paging.resetPage();
          }}
        />
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          title="产品管理"
          extra={
            <Space>
              <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
                导入
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open(null)}>
                新增产品
              </Button>
            </Space>
          }
        >
          <Form form={searchForm} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
            <Form.Item name="keyword">
              <Input placeholder="产品名称/编号" allowClear maxLength={50} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="status">
              <Select
                placeholder="状态"
                allowClear
                style={{ width: 110 }}
                options={[
                  { value: 1, label: '上架' },
                  { value: 0, label: '下架' },
                ]}
              />
            </Form.Item>
            <SearchActions
              onReset={() => {
                searchForm.resetFields();
                search({});
              }}
            />
          </Form>
          <Table<Product>
            rowKey="id"
            columns={columns}
            dataSource={list.data?.list}
            loading={list.isFetching}
            scroll={{ x: 820 }}
            pagination={paging.pagination(list.data?.count ?? 0)}
            locale={{ emptyText: list.isLoading ? ' ' : '暂无产品' }}
          />
        </Card>
      </Col>
      <ProductFormModal key={formModal.openKey} open={formModal.isOpen} product={formModal.target} onClose={formModal.close} />
      <ProductImportModal open={isImportOpen} onClose={() => setImportOpen(false)} />
    </Row>
  );
};
