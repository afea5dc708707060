import { ArrowLeftOutlined, CloudUploadOutlined, ExperimentOutlined, HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import type { FlowDetail, FlowGraph, FlowIssue } from '@crm/contracts';
import { App, Button, Card, Empty, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { issuesOfError, useFlowDetail, usePublishFlow, useUpdateFlow } from '../api';
import { rememberRecordings } from '../components/AudioField';
import { FlowOutline } from '../components/FlowOutline';
import { FlowStatusTag } from '../components/FlowStatusTag';
import { IssuesPanel } from '../components/IssuesPanel';
import { SettingsTab } from '../components/SettingsTab';
import { TestConsole } from '../components/TestConsole';
import { useLeaveGuard } from '../components/useLeaveGuard';
import { VersionsDrawer } from '../components/VersionsDrawer';
import { clientIssues, type DesignerTab, type IssueTarget, issueTarget, sameGraph } from '../flowEdit';

type Draft = { name: string; remark: string; graph: FlowGraph };
const draftOf = (d: FlowDetail): Draft => ({ name: d.name, remark: d.remark, graph: d.graph });

/** /aicall/flow/:id: the outline designer of one 话术 with save, publish, versions and the test console. */
export const FlowDesignerPage = () => {
  const id = Number(useParams().id) || 0;
  const navigate = useNavigate();
  const { message } = App.useApp();
  const detail = useFlowDetail(id);
  const update = useUpdateFlow();
  const publish = usePublishFlow();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<Draft | null>(null);
  const [serverIssues, setServerIssues] = useState<FlowIssue[]>([]);
  const [tab, setTab] = useState<DesignerTab>('nodes');
  const [selected, setSelected] = useState<string | null>(null);
  const [isTestOpen, setTestOpen] = useState(false);
  const [isVersionsOpen, setVersionsOpen] = useState(false);

  // the draft is taken from the server once per flow; later refetches only refresh issues and versions
  useEffect(() => {
    if (!detail.data || detail.data.id === undefined) return;
    setServerIssues(detail.data.issues);
    rememberRecordings(detail.data.audio_files);
    setDraft((d) => d ?? draftOf(detail.data));
    setSaved((s) => s ?? draftOf(detail.data));
  }, [detail.data]);

  const isDirty = draft !== null && saved !== null && !sameGraph(draft, saved);
  useLeaveGuard(isDirty);
  const localIssues = useMemo(() => (draft ? clientIssues(draft.graph) : []), [draft]);
  const flagged = useMemo(() => {
    const keys = new Set<string>();
    if (!draft) return keys;
    for (const i of [...localIssues, ...serverIssues]) {
      const t = issueTarget(i.path, draft.graph);
      if (t.nodeKey) keys.add(t.nodeKey);
    }
    return keys;
  }, [draft, localIssues, serverIssues]);

  if (detail.isError) return <Empty description="话术不存在或已删除" style={{ marginTop: 80 }} />;
  if (!detail.data || !draft)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 12 }} />
      </Card>
    );
  const flow = detail.data;

  const jump = (t: IssueTarget) => {
    setTab(t.tab);
    if (t.nodeKey) setSelected(t.nodeKey);
  };

  /** Saves the draft; false when the form has errors or the server refused. */
  const save = async (): Promise<boolean> => {
    if (!draft.name.trim()) {
      message.error('请输入话术名称');
      setTab('settings');
      return false;
    }
    if (localIssues.length > 0) {
      message.error(`有${localIssues.length}处填写有误，请先修改`);
      jump(issueTarget(localIssues[0].path, draft.graph));
      return false;
    }
    const sent = { ...draft, name: draft.name.trim(), remark: draft.remark.trim() };
    try {
      const res = await update.mutateAsync({ id, ...sent });
      setServerIssues(res.issues);
    } catch {
      return false;
    }
    setSaved(draft);
    // status and node count in the header follow the saved draft
    void detail.refetch();
    return true;
  };

  const onSave = async () => {
    if (await save()) message.success('保存成功');
  };

  const onPublish = async () => {
    if (isDirty && !(await save())) return;
    try {
      const res = await publish.mutateAsync(id);
      const fresh = await detail.refetch();
      const version = res?.version ?? fresh.data?.version;
      setServerIssues(fresh.data?.issues ?? []);
      message.success(`发布成功，当前版本 v${version}`);
    } catch (err) {
      const issues = issuesOfError(err);
      const fresh = await detail.refetch();
      const list = issues.length > 0 ? issues : (fresh.data?.issues ?? []);
      setServerIssues(list);
      message.error(list.length > 0 ? `话术有${list.length}处问题，请修改后再发布` : (err as Error).message);
      if (list[0]) jump(issueTarget(list[0].path, draft.graph));
    }
  };

  return (
    <Card
      styles={{ body: { paddingTop: 8 } }}
      title={
        <Space size={8}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label="返回话术列表" onClick={() => navigate('/aicall/flow')} />
          <Typography.Text strong ellipsis style={{ maxWidth: 260 }}>
            {draft.name || flow.name}
          </Typography.Text>
          <FlowStatusTag status={flow.status} />
          {flow.version > 0 && <Tag color="blue">v{flow.version}</Tag>}
          {isDirty && <Tag color="orange">未保存</Tag>}
        </Space>
      }
      extra={
        <Space>
          <Button icon={<ExperimentOutlined />} onClick={() => setTestOpen(true)}>
            测试
          </Button>
          <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)}>
            版本记录
          </Button>
          <Button icon={<SaveOutlined />} loading={update.isPending} disabled={!isDirty} onClick={onSave}>
            保存
          </Button>
          <Button type="primary" icon={<CloudUploadOutlined />} loading={publish.isPending} onClick={onPublish}>
            发布
          </Button>
        </Space>
      }
    >
      <IssuesPanel graph={draft.graph} issues={localIssues} title="填写有误" onJump={jump} />
      <IssuesPanel
        graph={draft.graph}
        issues={serverIssues}
        title={isDirty ? '发布前需处理的问题（上次保存时）' : '发布前需处理的问题'}
        onJump={jump}
      />
      <FlowOutline
        graph={draft.graph}
        onChange={(graph) => setDraft({ ...draft, graph })}
        tab={tab}
        onTab={setTab}
        selected={selected}
        onSelect={setSelected}
        flagged={flagged}
        settings={
          <SettingsTab
            name={draft.name}
            remark={draft.remark}
            settings={draft.graph.settings}
            onInfo={(info) => setDraft({ ...draft, ...info })}
            onChange={(settings) => setDraft({ ...draft, graph: { ...draft.graph, settings } })}
          />
        }
      />
      <TestConsole
        open={isTestOpen}
        onClose={() => setTestOpen(false)}
        flowId={id}
        versions={flow.versions.map((v) => v.version)}
        isDirty={isDirty}
        onSave={onSave}
      />
      <VersionsDrawer open={isVersionsOpen} onClose={() => setVersionsOpen(false)} flow={flow} />
    </Card>
  );
};
