import { PlusOutlined } from '@ant-design/icons';
import type { Label, LabelGroup } from '@crm/contracts';
import { App, Button, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteLabel, useEditLabel, useLabelTree } from '../api';
import { LabelFormModal, type LabelFormTarget } from '../components/LabelFormModal';
import { LabelGroupCard } from '../components/LabelGroupCard';

/** One more than the largest order among `labels`, so a new entry goes last unless the user says otherwise. */
const nextSortNum = (labels: Label[]) => Math.min(9999, labels.reduce((max, l) => Math.max(max, l.sortNum), 0) + 1);

/** /set/label: tag groups (pid 0), each with its tags; add, edit, order, 可用/禁用 and delete both. */
export const LabelsPage = () => {
  const { message } = App.useApp();
  const { data: groups = [], isLoading } = useLabelTree();
  const edit = useEditLabel();
  const remove = useDeleteLabel();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<LabelFormTarget>();

  const toggleState = async (label: Label, isEnabled: boolean) => {
    const { cmClid, pid, name, sortNum } = label;
    try {
      await edit.mutateAsync({ cmClid, pid, name, sortNum, actionState: isEnabled ? 0 : 1 });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('操作成功');
  };

  // The server refuses a group that still has tags and a tag customers carry, with its own message.
  const deleteLabel = (label: Label) => confirmDelete(() => remove.mutateAsync(label.cmClid));
  const addGroup = () => formModal.open({ mode: 'createGroup', sortNum: nextSortNum(groups) });
  const addTag = (group: LabelGroup) =>
    formModal.open({ mode: 'createTag', pid: group.cmClid, sortNum: nextSortNum(group.children) });
  const togglingId = edit.isPending ? edit.variables?.cmClid : undefined;

  const body = () => {
    if (isLoading) return <Skeleton active />;
    if (groups.length === 0) {
      return (
        <Empty description="还没有标签分组。先添加一个分组（如「客户意向」），再在分组中添加标签（如「高意向」）">
          <Button type="primary" icon={<PlusOutlined />} onClick={addGroup}>
            添加分组
          </Button>
        </Empty>
      );
    }
    return (
      <Flex vertical gap={16}>
        {groups.map((group) => (
          <LabelGroupCard
            key={group.cmClid}
            group={group}
            togglingId={togglingId}
            onAddTag={addTag}
            onEdit={(label) => formModal.open({ mode: 'edit', label })}
            onDelete={deleteLabel}
            onToggle={toggleState}
          />
        ))}
      </Flex>
    );
  };

  return (
    <Card
      title="标签设置"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={addGroup}>
          添加分组
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        标签按分组管理，给客户打标签时按分组选择。禁用的分组或标签不再出现在选项中；分组内还有标签时不能删除分组，已被客户使用的标签不能删除，可改为禁用。
      </Typography.Paragraph>
      {body()}
      <LabelFormModal
        key={formModal.openKey}
        isOpen={formModal.isOpen}
        target={formModal.target}
        groups={groups}
        onClose={formModal.close}
      />
    </Card>
  );
};
