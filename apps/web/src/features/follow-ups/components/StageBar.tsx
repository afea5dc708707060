import { App, Empty, Steps } from 'antd';
import { useStageOptions } from '../../customers/api';
import { useChangeStage } from '../api';

type Props = { cmCtid: number; cmNid: number | null; isReadOnly?: boolean };

/** The stage bar of the follow tab: click a stage to move the customer there (recorded in the history). */
export const StageBar = ({ cmCtid, cmNid, isReadOnly }: Props) => {
  const { message } = App.useApp();
  const stages = useStageOptions();
  const change = useChangeStage();
  const list = stages.data ?? [];
  if (!stages.isLoading && list.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未设置客户阶段（客户设置 → 阶段设置）" />;
  }
  const current = list.findIndex((s) => s.cmNid === cmNid);
  return (
    <Steps
      size="small"
      type="navigation"
      current={current}
      className="stage-bar"
      items={list.map((s, i) => ({
        title: s.name,
        status: i < current ? 'finish' : i === current ? 'process' : 'wait',
        disabled: isReadOnly || change.isPending,
      }))}
      onChange={async (i) => {
        const stage = list[i];
        if (!stage || stage.cmNid === cmNid) return;
        try {
          await change.mutateAsync({ cmCtid, cmNid: stage.cmNid });
        } catch {
          return;
        }
        message.success(`客户阶段已改为「${stage.name}」`);
      }}
    />
  );
};
