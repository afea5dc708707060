import type { FlowGraph, FlowIssue } from '@crm/contracts';
import { Alert, Typography } from 'antd';
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
                <Typography.Link onClick={() => onJump(target)}>{target.label}</Typography.Link>
                <Typography.Text>：{issue.msg}</Typography.Text>
              </li>
            );
          })}
        </ul>
      }
    />
  );
};
