import { PRODUCT_LIMITS, type Product, type ProductCategory } from '@crm/contracts';
import { App, Cascader, Input, Modal, Pagination, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { useCategoryTree, useProductList } from '../../products/api';
import { priceRangeText } from '../../products/components/variants';
import { lineOf, type OrderLine, variantName } from './orderLines';

type Props = { open: boolean; onClose: () => void; onAdd: (lines: OrderLine[]) => void };

type CategoryOption = { value: number; label: string; children?: CategoryOption[] };
const toOptions = (nodes: ProductCategory[]): CategoryOption[] =>
  nodes.map((c) => ({ value: c.id, label: c.name, children: c.children.length > 0 ? toOptions(c.children) : undefined }));

/**
 * 添加产品 (SPEC §2): search by name or code, category cascader, the products on sale with a
 * simple pager of 10 (SPEC §9), and a specification picker for products with variants.
 */
export const ProductPickerModal = ({ open, onClose, onAdd }: Props) => {
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState('');
  const [pcid, setPcid] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Record<number, Product>>({});
  const [variantOf, setVariantOf] = useState<Record<number, number>>({});
  const tree = useCategoryTree();
  const list = useProductList({ page, limit: PRODUCT_LIMITS.pageSize, keyword, pcid, status: 1 }, open);

  const reset = () => {
    setChosen({});
    setVariantOf({});
  };

  const confirm = () => {
    const products = Object.values(chosen);
    if (products.length === 0) return message.warning('请选择产品');
    const missing = products.find((p) => p.detailed.length > 0 && !variantOf[p.id]);
    if (missing) return message.warning(`请选择「${missing.name}」的规格`);
    onAdd(products.map((p) => lineOf(p, p.detailed.find((d) => d.id === variantOf[p.id]) ?? null)));
    reset();
    onClose();
  };

  return (
    <Modal
      title="添加产品"
      open={open}
      width={900}
      onCancel={() => {
        reset();
        onClose();
      }}
      onOk={confirm}
      okText="确定"
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search
          allowClear
          placeholder="产品名称/编号"
          style={{ width: 240 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
        <Cascader
          changeOnSelect
          allowClear
          placeholder="产品分类"
          style={{ width: 220 }}
          options={toOptions(tree.data ?? [])}
          onChange={(path) => {
            setPcid(path?.length ? Number(path[path.length - 1]) : undefined);
            setPage(1);
          }}
        />
      </Space>
      <Table<Product>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        pagination={false}
        locale={{ emptyText: '暂无产品' }}
        rowSelection={{
          selectedRowKeys: Object.keys(chosen).map(Number),
          preserveSelectedRowKeys: true,
          onChange: (_, rows) =>
            setChosen((prev) => {
              const onPage = new Set((list.data?.list ?? []).map((p) => p.id));
              const kept = Object.values(prev).filter((p) => !onPage.has(p.id));
              return Object.fromEntries([...kept, ...rows.filter(Boolean)].map((p) => [p.id, p]));
            }),
        }}
        columns={[
          { title: '产品编号', dataIndex: 'code', width: 110, ellipsis: true, render: (v: string) => v || '-' },
          { title: '产品名称', dataIndex: 'name', ellipsis: true },
          { title: '分类', dataIndex: 'category_name', width: 100, render: (v: string) => v || '未分类' },
          {
            title: '规格',
            key: 'variant',
            width: 260,
            render: (_, p) =>
              p.detailed.length === 0 ? (
                <Typography.Text type="secondary">无规格</Typography.Text>
              ) : (
                <Select
                  size="small"
                  style={{ width: 240 }}
                  placeholder="请选择规格"
                  aria-label={`${p.name}的规格`}
                  value={variantOf[p.id]}
                  options={p.detailed.map((d) => ({ value: d.id, label: `${variantName(d)}  ¥${formatMoney(d.price)}` }))}
                  onChange={(id: number) => {
                    setVariantOf((v) => ({ ...v, [p.id]: id }));
                    setChosen((c) => ({ ...c, [p.id]: p }));
                  }}
                />
              ),
          },
          {
            // the chosen variant's price; before a choice, the range of the variants' prices
            title: '售价(元)',
            key: 'price',
            width: 150,
            align: 'right',
            render: (_, p) => {
              const variant = p.detailed.find((d) => d.id === variantOf[p.id]);
              return <span data-testid={`price-${p.id}`}>{variant ? formatMoney(variant.price) : priceRangeText(p)}</span>;
            },
          },
        ]}
      />
      <Pagination
        simple
        align="end"
        style={{ marginTop: 12 }}
        current={page}
        pageSize={PRODUCT_LIMITS.pageSize}
        total={list.data?.count ?? 0}
        onChange={setPage}
      />
    </Modal>
  );
};
