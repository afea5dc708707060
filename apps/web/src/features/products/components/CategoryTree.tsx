import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { PRODUCT_LIMITS, type ProductCategory } from '@crm/contracts';
import { App, Button, Card, Empty, Form, Input, Modal, Skeleton, Tooltip, Tree, type TreeDataNode } from 'antd';
import { useState } from 'react';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useCategoryTree, useCreateCategory, useDeleteCategory, useEditCategory } from '../api';
import styles from './CategoryTree.module.css';

type Editing = { mode: 'add'; pid: number; depth: number } | { mode: 'rename'; category: ProductCategory };

type Props = { selected?: number; onSelect: (pcid: number | undefined) => void };

/** The name dialog of a category: add (under a parent or at the top) or rename. */
const CategoryNameModal = ({ editing, onClose }: { editing: Editing | null; onClose: () => void }) => {
  const [form] = Form.useForm<{ name: string }>();
  const { message } = App.useApp();
  const create = useCreateCategory();
  const edit = useEditCategory();
  const submit = async () => {
    const { name } = await form.validateFields();
    if (!editing) return;
    try {
      if (editing.mode === 'add') await create.mutateAsync({ pid: editing.pid, name, sortNum: 0 });
      else
        await edit.mutateAsync({ id: editing.category.id, pid: editing.category.pid, name, sortNum: editing.category.sortNum });
    } catch {
      return;
    }
    message.success(editing.mode === 'add' ? '添加成功' : '操作成功');
    onClose();
  };
  return (
    <Modal
      title={editing?.mode === 'rename' ? '重命名分类' : '添加分类'}
      open={editing !== null}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || edit.isPending}
      destroyOnHidden
      width={420}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: editing?.mode === 'rename' ? editing.category.name : '' }}
      >
        <Form.Item
          name="name"
          label="分类名称"
          rules={[{ required: true, whitespace: true, message: '请输入分类名称' }, { max: PRODUCT_LIMITS.categoryName }]}
        >
          <Input maxLength={PRODUCT_LIMITS.categoryName} showCount placeholder="请输入分类名称" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** 产品分类: the tree on the left of 产品管理; a click filters the table, hover shows the actions. */
export const CategoryTree = ({ selected, onSelect }: Props) => {
  const tree = useCategoryTree();
  const del = useDeleteCategory();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<Editing | null>(null);

  const toNodes = (nodes: ProductCategory[], depth: number): TreeDataNode[] =>
    nodes.map((c) => ({
      key: c.id,
      title: (
        <div className={styles.node}>
          <span>{c.name}</span>
          <span className={styles.actions}>
            {depth < PRODUCT_LIMITS.categoryDepth && (
              <Tooltip title="添加子分类">
                <Button
                  type="text"
                  size="small"
                  aria-label={`添加${c.name}的子分类`}
                  icon={<PlusOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ mode: 'add', pid: c.id, depth: depth + 1 });
                  }}
                />
              </Tooltip>
            )}
            <Tooltip title="重命名">
              <Button
                type="text"
                size="small"
                aria-label={`重命名${c.name}`}
                icon={<EditOutlined />}
                onClick={(e) => {
                  e.stopPropagation();
                  setEditing({ mode: 'rename', category: c });
                }}
              />
            </Tooltip>
            <Tooltip title="删除">
              <Button
                type="text"
                size="small"
                danger
                aria-label={`删除${c.name}`}
                icon={<DeleteOutlined />}
                onClick={(e) => {
                  e.stopPropagation();
                  confirmDelete(async () => {
                    await del.mutateAsync({ id: c.id });
                    if (selected === c.id) onSelect(undefined);
                  }, `确定要删除分类「${c.name}」吗？`);
                }}
              />
            </Tooltip>
          </span>
        </div>
      ),
      children: toNodes(c.children, depth + 1),
    }));

  return (
    <Card
      title="产品分类"
      size="small"
      extra={
        <Button
          type="link"
          size="small"
          aria-label="添加分类"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ mode: 'add', pid: 0, depth: 1 })}
        >
          添加
        </Button>
      }
      styles={{ body: { padding: 8, minHeight: 420 } }}
    >
      <Button
        type={selected === undefined ? 'primary' : 'text'}
        ghost={selected === undefined}
        block
        style={{ textAlign: 'left', marginBottom: 4 }}
        onClick={() => onSelect(undefined)}
      >
        全部产品
      </Button>
      {tree.isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (tree.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无分类" />
      ) : (
        <Tree
          blockNode
          defaultExpandAll
          selectedKeys={selected === undefined ? [] : [selected]}
          treeData={toNodes(tree.data ?? [], 1)}
          onSelect={(keys) => onSelect(keys.length > 0 ? Number(keys[0]) : undefined)}
        />
      )}
      <CategoryNameModal editing={editing} onClose={() => setEditing(null)} />
    </Card>
  );
};
