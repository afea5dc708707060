import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { CascaderOption } from '@crm/contracts';
import { Button, Input, Space, Tooltip } from 'antd';
// The Form.Item around the editor reports the tree's one problem; without this its error
// status would paint every option input red. antd uses the same context reset internally.
import { NoFormStyle } from 'antd/es/form/context';
import { treeValues } from './control-tree';

/** An option while edited: `uid` keeps React's rows stable while labels and values change. */
export type EditorOption = CascaderOption & { uid?: string; children?: EditorOption[] };

let uidSeq = 0;
const nextUid = () => `opt-${++uidSeq}`;

/** Gives every option of a saved tree its editor uid. */
export const withUids = (tree: CascaderOption[]): EditorOption[] =>
  tree.map((o) => ({ ...o, uid: nextUid(), children: o.children ? withUids(o.children) : undefined }));

type Props = {
  value?: EditorOption[];
  onChange?: (value: EditorOption[]) => void;
  /** values already saved: customers may hold them, so they cannot be edited */
  lockedValues?: ReadonlySet<string>;
  /** levels a tree may have (province/city/district style) */
  maxDepth?: number;
};

/** The value for a new option: one above the largest numeric value of the tree. */
const newValue = (tree: CascaderOption[]) =>
  String(Math.max(0, ...treeValues(tree).map((v) => (/^\d+$/.test(v) ? Number(v) : 0))) + 1);

type Path = number[];

const updateAt = (tree: EditorOption[], path: Path, fn: (level: EditorOption[]) => EditorOption[]): EditorOption[] => {
  if (path.length === 0) return fn(tree);
  const [head, ...rest] = path;
  return tree.map((o, i) => (i === head ? { ...o, children: updateAt(o.children ?? [], rest, fn) } : o));
};

/**
 * Editor of a cascader's options (kinds 15 and 24): nested options, each with a label and a
 * value; new options get a generated value, which may be changed until it is saved.
 */
export const TreeOptionsEditor = ({ value = [], onChange, lockedValues, maxDepth = 4 }: Props) => {
  const change = (path: Path, fn: (level: EditorOption[]) => EditorOption[]) => onChange?.(updateAt(value, path, fn));
  const add = (path: Path) => change(path, (level) => [...level, { value: newValue(value), label: '', uid: nextUid() }]);

  const renderLevel = (level: EditorOption[], path: Path, depth: number) => (
    <div style={depth > 1 ? { marginLeft: 20, paddingLeft: 12, borderLeft: '2px solid #e6f4ff', marginTop: 8 } : undefined}>
      {level.map((o, i) => {
        const setField = (patch: Partial<EditorOption>) =>
          change(path, (items) => items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
        const move = (step: -1 | 1) =>
          change(path, (items) => {
            const next = [...items];
            [next[i], next[i + step]] = [next[i + step], next[i]];
            return next;
          });
        return (
          <div key={o.uid ?? o.value} style={{ marginBottom: 8 }}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                aria-label={`第${depth}级选项名称`}
                placeholder={`第${depth}级选项名称`}
                value={o.label}
                maxLength={50}
                status={o.label.trim() ? undefined : 'warning'}
                onChange={(e) => setField({ label: e.target.value })}
              />
              <Tooltip title={lockedValues?.has(o.value) ? '已保存的选项值不能修改' : '选项值，保存在客户资料中'}>
                <Input
                  aria-label="选项值"
                  style={{ width: 110 }}
                  prefix={<span style={{ color: 'rgba(0,0,0,0.35)' }}>值</span>}
                  placeholder="自动生成"
                  value={o.value}
                  maxLength={50}
                  disabled={lockedValues?.has(o.value)}
                  onChange={(e) => setField({ value: e.target.value.trim() })}
                />
              </Tooltip>
              <Tooltip title="上移">
                <Button aria-label="上移" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(-1)} />
              </Tooltip>
              <Tooltip title="下移">
                <Button
                  aria-label="下移"
                  icon={<ArrowDownOutlined />}
                  disabled={i === level.length - 1}
                  onClick={() => move(1)}
                />
              </Tooltip>
              {depth < maxDepth && (
                <Tooltip title="添加子选项">
                  <Button aria-label="添加子选项" icon={<PlusOutlined />} onClick={() => add([...path, i])} />
                </Tooltip>
              )}
              <Tooltip title="删除（含子选项）">
                <Button
                  aria-label="删除"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => change(path, (items) => items.filter((_, j) => j !== i))}
                />
              </Tooltip>
            </Space.Compact>
            {(o.children?.length ?? 0) > 0 && renderLevel(o.children ?? [], [...path, i], depth + 1)}
          </div>
        );
      })}
    </div>
  );

  return (
    <NoFormStyle status override>
      {renderLevel(value, [], 1)}
      <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add([])}>
        添加一级选项
      </Button>
    </NoFormStyle>
  );
};
