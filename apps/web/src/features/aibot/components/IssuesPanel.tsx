import type { FlowGraph, FlowIssue } from '@crm/contracts';
import { Alert, Button, Typography } from 'antd';
import { type IssueTarget, issueTarget } from '../flowEdit';

type Props = {
  graph: FlowGraph;
  issues: FlowIssue[];
  title: string;
  onJump: (target: IssueTarget) => void;
};

/** The graph's problems; clicking one opens its tab and node. */
export const IssuesPanel = ({ graph, issues, title, onJump }: Props) => {
  if (issues.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      title={`${title}（${issues.length}）`}
      description={
        <ul aria-label="话术问题" style={{ margin: 0, paddingLeft: 18, maxHeight: 120, overflowY: 'auto' }}>
          {issues.map((issue, i) => {
            const target = issueTarget(issue.path, graph);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: two issues may share path and text
              <li key={i}>
                <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={() => onJump(target)}>
                  {target.label}
                </Button>
                <Typography.Text>：{issue.msg}</Typography.Text>
              </li>
            );
          })}
        </ul>
      }
    />
  );
};
