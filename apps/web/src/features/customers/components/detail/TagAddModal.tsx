import { App, Empty, Modal, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLabelOptions } from '../../../../components/TemplateForm/useLabelOptions';
import { useButtonLock } from '../../../../components/useButtonLock';
import { useSetCustomerLabels } from '../../api';

type Props = { open: boolean; cmCtid: number; current: number[]; onClose: () => void };

/** The tag add window (SPEC §2): tags shown by group; the checked ones become the customer's tags. */
export const TagAddModal = ({ open, cmCtid, current, onClose }: Props) => {
  const { message } = App.useApp();
  const labels = useLabelOptions();
  const setLabels = useSetCustomerLabels();
  const [checked, setChecked] = useState<number[]>(current);
  useEffect(() => {
    if (open) setChecked(current);
  }, [open, current]);

  const groups = useMemo(() => {
    const all = labels.data ?? [];
    return all
      .filter((l) => l.pid === 0)
      .map((g) => ({ group: g, tags: all.filter((t) => t.pid === g.cmClid) }))
      .filter((g) => g.tags.length > 0);
  }, [labels.data]);

  const [submit, isLocked] = useButtonLock(async () => {
    try {
      await setLabels.mutateAsync({ cmCtids: [cmCtid], cmClids: checked });
    } catch {
      return;
    }
    message.success('操作成功');
    onClose();
  });

  const toggle = (id: number, on: boolean) => setChecked((prev) => (on ? [...prev, id] : prev.filter((x) => x !== id)));

  return (
    <Modal
      title="添加标签"
      open={open}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: setLabels.isPending, disabled: isLocked && !setLabels.isPending }}
    >
      {groups.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无可用标签，请先在「客户设置 → 标签设置」中添加" />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%', marginTop: 8 }}>
          {groups.map(({ group, tags }) => (
            <div key={group.cmClid}>
              <Typography.Text type="secondary">{group.name}</Typography.Text>
              <div style={{ marginTop: 8 }}>
                {tags.map((t) => (
                  <Tag.CheckableTag
                    key={t.cmClid}
                    checked={checked.includes(t.cmClid)}
                    onChange={(on) => toggle(t.cmClid, on)}
                    style={{ border: '1px solid #d9d9d9', marginBottom: 6 }}
                  >
                    {t.name}
                  </Tag.CheckableTag>
                ))}
              </div>
            </div>
          ))}
        </Space>
      )}
    </Modal>
  );
};
