import type { AibotSettings, AibotSettingsBody } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import * as repo from './aibot.repo';
import type { LlmConfig } from './llm-classifier';
import { checkLlmUrl, LlmUrlError, type LlmUrlPolicy } from './llm-url-policy';

// The company's AI settings (issue 16, the optional LLM classifier): read, saved under the
// operator's URL policy, and the classifier a call or the test console uses.

/** The company's classifier when it is switched on and complete; otherwise keywords only. */
export const companyLlm = async (db: DbOrTx, tenantId: number, policy: LlmUrlPolicy): Promise<LlmConfig | null> => {
  const s = await repo.findSettings(db, tenantId);
  if (!s?.llmEnabled || !s.llmUrl || !s.llmModel) return null;
  return { url: s.llmUrl, model: s.llmModel, key: s.llmKey, timeoutMs: s.llmTimeoutMs, policy };
};

const DEFAULT_SETTINGS: AibotSettings = {
  llm_enabled: false,
  llm_url: '',
  llm_model: '',
  llm_key_set: false,
  llm_timeout_ms: 1500,
};

/** The company's AI settings; the key itself never leaves the server. */
export const getSettings = async (db: DbOrTx, actor: Actor): Promise<AibotSettings> => {
  const s = await repo.findSettings(db, actor.tenantId);
  if (!s) return DEFAULT_SETTINGS;
  return {
    llm_enabled: s.llmEnabled,
    llm_url: s.llmUrl,
    llm_model: s.llmModel,
    llm_key_set: s.llmKey !== '',
    llm_timeout_ms: s.llmTimeoutMs,
  };
};

/**
 * Saves the settings: an omitted or empty key keeps the stored one, null removes it. The URL must
 * pass the operator's policy (llm-url-policy.ts: public http(s) addresses unless allowed).
 */
export const saveSettings = async (
  db: DbOrTx,
  actor: Actor,
  body: AibotSettingsBody,
  policy: LlmUrlPolicy,
): Promise<AibotSettings> => {
  if (body.llm_enabled && (!body.llm_url || !body.llm_model.trim())) throw new AppError('AIBOT_LLM_INCOMPLETE');
  if (body.llm_url) {
    await checkLlmUrl(body.llm_url, policy).catch((err) => {
      throw err instanceof LlmUrlError ? new AppError('AIBOT_LLM_URL_REFUSED', err.message) : err;
    });
  }
  const stored = await repo.findSettings(db, actor.tenantId);
  const key = body.llm_key === null ? '' : body.llm_key ? body.llm_key : (stored?.llmKey ?? '');
  await repo.saveSettings(db, {
    tenantId: actor.tenantId,
    llmEnabled: body.llm_enabled,
    llmUrl: body.llm_url,
    llmModel: body.llm_model.trim(),
    llmKey: key,
    llmTimeoutMs: body.llm_timeout_ms,
    updatedAt: now(),
  });
  return getSettings(db, actor);
};
