/** What a follow-up does to its customer: the follow controls' values parsed and saved, follow time, next appointment, stage. */
import type { SubmittedControl } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import type { ParsedValues } from './control-values';
import type { Viewer } from './customer-access';
import { checkDuplicates, checkRefs, parseOrThrow } from './customer-checks';
import { contactOf, phonesOf } from './customer-derived';
import { type LoadedTemplate, loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';

/** Parses the isFollowShow control values of a follow-up; values of other controls are ignored. */
export const parseFollowControls = async (db: Db, actor: Actor, submitted: SubmittedControl[]) => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const followIds = new Set(tpl.enabled.filter((c) => c.isFollowShow === 1).map((c) => c.id));
  const mine = submitted.filter((c) => followIds.has(c.cbTacid));
  const parsed = parseOrThrow({ ...tpl, enabled: tpl.enabled.filter((c) => followIds.has(c.id)) }, mine, true);
  await checkRefs(db, actor, parsed.refs);
  return { tpl, parsed };
};

export type FollowUpChange = {
  at: Date;
  stageId?: number;
  nextFollowAt?: Date;
  tpl: LoadedTemplate;
  parsed: ParsedValues;
};

/** A follow-up updates the customer: follow time and writer, next appointment, stage, follow controls. */
export const applyFollowUp = async (tx: DbOrTx, v: Viewer, customer: repo.CustomerRecord, change: FollowUpChange) => {
  const { actor } = v;
  const hasValues = Object.keys(change.parsed.vals).length > 0;
  const vals = hasValues ? { ...customer.vals, ...change.parsed.vals } : customer.vals;
  if (hasValues) await checkDuplicates(tx, v, change.tpl, change.parsed, customer.id);
  await repo.updateCustomer(tx, actor.tenantId, customer.id, {
    followAt: change.at,
    followerId: actor.staffId,
    ...(change.nextFollowAt ? { nextFollowAt: change.nextFollowAt } : {}),
    ...(change.stageId ? { stageId: change.stageId } : {}),
    ...(hasValues ? { vals, ...contactOf(change.tpl, vals) } : {}),
  });
  if (hasValues) await repo.replacePhones(tx, actor.tenantId, customer.id, phonesOf(change.tpl, vals));
};
