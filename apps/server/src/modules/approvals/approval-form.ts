import { APPROVAL_LIMITS, CASCADER_PATH_SEPARATOR, DOC_LINK_DM_TYPE, NODE_TYPE, type TemplateCreateBody } from '@crm/contracts';
import { isValidRegionLabelPath } from '@crm/regions';
import type { Tx } from '../../db/client';
import type { ApprovalControlDef, ApprovalNodeDef } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { activeStaffIds } from '../staff/staff-lookup';

/** The submitter's form of a new instance: the control values checked, the node staff resolved. */

/** The submitted values of the form: required controls filled, the document link read from dmType 17. */
export const readControls = (controls: ApprovalControlDef[], body: TemplateCreateBody) => {
  const given = new Map(body.templateControls.map((c) => [c.coTacid, c.dmValue.map((v) => v.trim()).filter((v) => v !== '')]));
  const vals: Record<string, string[]> = {};
  let docId = 0;
  for (const c of controls) {
    const value = given.get(c.coTacid) ?? [];
    if (c.dmType === DOC_LINK_DM_TYPE) {
      docId = /^\d{1,9}$/.test(value[0] ?? '') ? Number(value[0]) : 0;
      continue;
    }
    if (c.dmMust === 1 && value.length === 0 && c.dmType !== 14) {
      throw new AppError(
        'APPROVAL_CONTROL_REQUIRED',
        [7, 8, 4, 5, 11, 12, 24].includes(c.dmType) ? `请选择${c.name}` : `请输入${c.name}`,
      );
    }
    if ([7].includes(c.dmType) && value.length > 1) throw new AppError('APPROVAL_CONTROL_REQUIRED', `${c.name}只能选择一项`);
    if ([7, 8].includes(c.dmType) && value.some((v) => !c.dmValue.includes(v)))
      throw new AppError('APPROVAL_CONTROL_REQUIRED', `请选择${c.name}`);
    // SPEC §4 kind 11: a path of region names down the built-in tree; kind 24: one of the option paths
    if (c.dmType === 11 && value.length > 0 && !isValidRegionLabelPath(value))
      throw new AppError('APPROVAL_CONTROL_REQUIRED', `请选择${c.name}`);
    if (c.dmType === 24 && value.length > 0 && !c.dmValue.includes(value.join(CASCADER_PATH_SEPARATOR)))
      throw new AppError('APPROVAL_CONTROL_REQUIRED', `请选择${c.name}`);
    if (value.some((v) => v.length > APPROVAL_LIMITS.remark))
      throw new AppError('APPROVAL_CONTROL_REQUIRED', `${c.name}内容过长`);
    // SPEC §5 deal form: integer, number and phone inputs 20 characters, other single-line inputs 30
    const max = [2, 3, 6].includes(c.dmType) ? APPROVAL_LIMITS.numberInput : c.dmType === 0 ? APPROVAL_LIMITS.controlText : 0;
    if (max > 0 && value.some((v) => v.length > max))
      throw new AppError('APPROVAL_CONTROL_REQUIRED', `${c.name}最多${max}个字符`);
    if (value.length > 0) vals[String(c.coTacid)] = value;
  }
  return { vals, docId };
};

/** The staff of each node: preset ones, or (free nodes) the 1–3 the submitter picked (SPEC §5). */
export const resolveStaff = async (tx: Tx, actor: Actor, nodes: ApprovalNodeDef[], body: TemplateCreateBody) => {
  const picked = new Map(body.staffApproveNode.map((n) => [n.nodeId, [...new Set(n.staffS.map((s) => s.id))]]));
  const out: { node: ApprovalNodeDef; staffIds: number[]; isFree: boolean }[] = [];
  for (const node of nodes) {
    const isFree = node.staffIds.length === 0;
    const ids = isFree ? (picked.get(node.nodeId) ?? []) : node.staffIds;
    if (isFree && ids.length === 0 && node.type === NODE_TYPE.approver) throw new AppError('APPROVER_REQUIRED');
    if (ids.length > APPROVAL_LIMITS.staffPerNode) throw new AppError('APPROVER_TOO_MANY');
    const active = await activeStaffIds(tx, actor.tenantId, ids);
    if (active.length !== ids.length && isFree) throw new AppError('APPROVER_INVALID');
    if (active.length === 0 && node.type === NODE_TYPE.approver) throw new AppError('APPROVER_INVALID');
    out.push({ node, staffIds: ids.filter((id) => active.includes(id)), isFree });
  }
  return out;
};
