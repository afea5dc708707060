/**
 * Paid provider lookups through the adapter: whose key (the company's own, else the platform's),
 * the cache (a query or a company fetched within LEADS_CACHE_TTL_DAYS is not asked again), the
 * log of every paid call (lead_lookups) and its charge (lead-lookup-charges.ts).
 */

import { ERRORS } from '@crm/contracts';
import type { LeadsConfig } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { chargeLookup } from './lead-lookup-charges';
import { normalizeName } from './lead-names';
import * as repo from './leads.repo';
import * as data from './leads-data.repo';
import { rowOfDetail, rowOfHit } from './leads-registry';
import { type ProviderCredentials, ProviderError, providerDetails, providerSearch } from './provider/lead-provider';
import { ProviderLimiter } from './provider/rate-limit';

/** The provider as this instance reaches it: its address (resolved at startup) and its limiter. */
export type ProviderHandle = { url: string; limiter: ProviderLimiter; cfg: LeadsConfig };

export type LeadsEnv = { db: Db; provider: ProviderHandle };

export const providerHandle = (url: string, cfg: LeadsConfig): ProviderHandle => ({
  url,
  // 95 % of the rate: arrival jitter never puts one more call into a provider's 1-second window
  limiter: new ProviderLimiter(cfg.tenantQps * 0.95, cfg.globalQps * 0.95),
  cfg,
});

const DAY_MS = 86_400_000;
const freshSince = (cfg: LeadsConfig) => new Date(Date.now() - cfg.cacheTtlDays * DAY_MS);

/** The company's own key, else the platform's; refused when neither (or no provider) is set. */
export const credentialsFor = async (env: LeadsEnv, tenantId: number): Promise<ProviderCredentials> => {
  const own = await data.findSettings(env.db, tenantId);
  const key = own?.providerKey || env.provider.cfg.providerKey;
  const secret = own?.providerKey ? own.providerSecret : env.provider.cfg.providerSecret;
  if (!env.provider.url || !key || !secret) throw new AppError('LEAD_PROVIDER_NOT_CONFIGURED');
  return { url: env.provider.url, key, secret };
};

/** The Chinese message of a failed provider call. */
export const providerMessage = (err: unknown): string => {
  if (err instanceof AppError) return err.message;
  if (err instanceof ProviderError) {
    if (err.kind === 'auth') return ERRORS.LEAD_PROVIDER_AUTH_FAILED.msg;
    if (err.kind === 'rate') return ERRORS.LEAD_PROVIDER_RATE_LIMITED.msg;
  }
  return ERRORS.LEAD_PROVIDER_FAILED.msg;
};

const logLookup = async (env: LeadsEnv, actor: Actor, kind: 'search' | 'detail', query: string, err: unknown) => {
  const isOk = err === null;
  const costFen = isOk ? (kind === 'search' ? env.provider.cfg.searchCostFen : env.provider.cfg.detailCostFen) : 0;
  await env.db.transaction(async (tx) => {
    await data.insertLookup(tx, {
      tenantId: actor.tenantId,
      staffId: actor.staffId,
      kind,
      query: query.slice(0, 200),
      isOk,
      costFen,
      error: isOk ? '' : providerMessage(err),
    });
    if (isOk) await chargeLookup(tx, { tenantId: actor.tenantId, staffId: actor.staffId, kind, query, costFen });
  });
};

// Two users asking the same thing at once share one paid call (per instance).
const inFlight = new Map<string, Promise<number[]>>();

/** Provider name search → registry ids (cached by normalized query for the TTL: asked twice, paid once). */
export const remoteSearch = async (env: LeadsEnv, actor: Actor, keyword: string): Promise<number[]> => {
  const queryNorm = normalizeName(keyword);
  const cached = await data.findCachedSearch(env.db, queryNorm, freshSince(env.provider.cfg));
  if (cached) return cached.companyIds;
  const running = inFlight.get(queryNorm);
  if (running) return running;
  const work = (async () => {
    const creds = await credentialsFor(env, actor.tenantId);
    let hits: Awaited<ReturnType<typeof providerSearch>>;
    try {
      hits = await providerSearch(env.provider.limiter, actor.tenantId, creds, keyword);
    } catch (err) {
      await logLookup(env, actor, 'search', keyword, err);
      throw err;
    }
    await logLookup(env, actor, 'search', keyword, null);
    const at = new Date();
    const byCode = new Map<string, repo.LeadInsert>();
    for (const h of hits) {
      const row = rowOfHit(h, at);
      if (row?.creditCode) byCode.set(row.creditCode, row);
    }
    const saved = await repo.upsertPlatformRows(env.db, [...byCode.values()]);
    const ids = saved.map((s) => s.id);
    await data.saveCachedSearch(env.db, queryNorm, ids, at);
    return ids;
  })();
  inFlight.set(queryNorm, work);
  try {
    return await work;
  } finally {
    inFlight.delete(queryNorm);
  }
};

/**
 * The company card's details: fetched from the provider once per TTL for a platform row that has
 * none (a failure leaves the row as it is and says why).
 */
export const ensureDetails = async (
  env: LeadsEnv,
  actor: Actor,
  row: repo.LeadRow,
): Promise<{ row: repo.LeadRow; error: string }> => {
  const isFresh = row.detailFetchedAt !== null && row.detailFetchedAt >= freshSince(env.provider.cfg);
  if (row.tenantId !== null || isFresh || !row.creditCode) return { row, error: '' };
  const flight = `detail:${row.creditCode}`;
  try {
    const running = inFlight.get(flight);
    if (running) await running;
    else {
      const work = (async () => {
        const creds = await credentialsFor(env, actor.tenantId);
        let detail: Awaited<ReturnType<typeof providerDetails>>;
        try {
          detail = await providerDetails(env.provider.limiter, actor.tenantId, creds, row.creditCode as string);
        } catch (err) {
          await logLookup(env, actor, 'detail', row.creditCode as string, err);
          throw err;
        }
        await logLookup(env, actor, 'detail', row.creditCode as string, null);
        const insert = detail ? rowOfDetail(detail, new Date()) : null;
        if (insert) await repo.upsertPlatformRows(env.db, [insert]);
        return [];
      })();
      inFlight.set(flight, work);
      try {
        await work;
      } finally {
        inFlight.delete(flight);
      }
    }
  } catch (err) {
    if (err instanceof AppError && err.key !== 'LEAD_PROVIDER_NOT_CONFIGURED') throw err;
    return { row, error: providerMessage(err) };
  }
  return { row: (await repo.findRow(env.db, actor.tenantId, row.id)) ?? row, error: '' };
};
