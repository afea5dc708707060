import fs from 'node:fs';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { registerFileHolder } from '../uploads/file-access';
import { findTenantFileBytes, storeGeneratedFile } from '../uploads/uploads.service';
import * as repo from './contract.repo';
import { canReadContract } from './contract-access';
import { sealSourceOf, stampSoFar } from './contract-document';

/** A contract's stored files (draft, signed, archived, dismissed, signatures): read, written and guarded. */

/**
 * Files written for a signer who has no session (the public signing page) are recorded as the
 * contract owner's: storeGeneratedFile reads only the tenant and the staff id of its actor.
 */
export const fileOwner = (tenantId: number, staffId: number) => ({ tenantId, staffId }) as Actor;

export const storeContractFile = async (
  db: Db,
  config: Pick<Config, 'dataDir'>,
  owner: Actor,
  name: string,
  ext: 'pdf' | 'png',
  bytes: Uint8Array,
) => {
  const file = await storeGeneratedFile(db, config.dataDir, owner, { originalName: name, ext, scene: 'contract' }, (fullPath) =>
    fs.promises.writeFile(fullPath, bytes),
  );
  return file.id;
};

export const fileBytes = async (db: Db, config: Pick<Config, 'dataDir'>, tenantId: number, id: number | null) => {
  if (!id) throw new AppError('CONTRACT_PDF_UNAVAILABLE');
  const f = await findTenantFileBytes(db, config.dataDir, tenantId, id);
  if (!f) throw new AppError('CONTRACT_PDF_UNAVAILABLE');
  return new Uint8Array(f.buf);
};

/** The draft with what has been signed so far: the seal once the company signed, the customer's signature once he did. */
export const currentPdf = async (db: Db, config: Pick<Config, 'dataDir'>, c: repo.ContractRecord) => {
  if (c.signedFileId) return fileBytes(db, config, c.tenantId, c.signedFileId);
  const draft = await fileBytes(db, config, c.tenantId, c.draftFileId);
  const signers = await repo.signersOf(db, c.tenantId, c.id);
  const company = signers.find((s) => s.party === 1 && s.signedAt);
  const customer = signers.find((s) => s.party === 2 && s.signedAt);
  if (!company && !customer) return draft;
  const [template, seal, account] = await Promise.all([
    repo.findTemplate(db, c.tenantId, c.templateId),
    repo.findSeal(db, c.tenantId, c.sealId),
    repo.findAccount(db, c.tenantId),
  ]);
  if (!template || !seal) throw new AppError('CONTRACT_PDF_UNAVAILABLE');
  const sealPngBytes = seal.fileId ? await fileBytes(db, config, c.tenantId, seal.fileId) : undefined;
  const signature = customer?.signatureFileId
    ? { png: await fileBytes(db, config, c.tenantId, customer.signatureFileId) }
    : customer
      ? { typedName: customer.typedName }
      : undefined;
  return stampSoFar({
    draft,
    template,
    seal: company ? sealSourceOf(seal, account?.companyName ?? '', sealPngBytes) : undefined,
    customer: signature,
    companySignedAt: company ? formatDateTime(company.signedAt).slice(0, 16) : undefined,
    customerSignedAt: customer ? formatDateTime(customer.signedAt).slice(0, 16) : undefined,
  });
};

const holds = async (db: Db, tenantId: number, fileId: number) => {
  const direct = await repo.contractsWithFile(db, tenantId, fileId);
  if (direct.length) return direct;
  const bySignature = await repo.signersWithFile(db, tenantId, fileId);
  return bySignature.length ? repo.contractsByIds(db, tenantId, [bySignature[0].contractId]) : [];
};

/** Contract files by their /api/files link: only staff who may read one of the contracts holding them. */
export const registerContractFiles = () =>
  registerFileHolder('contract', {
    precedence: 30,
    access: async (db, actor, fileId) => {
      const held = await holds(db, actor.tenantId, fileId);
      if (held.length === 0) return undefined;
      for (const c of held) if (await canReadContract(db, actor, c)) return { isAllowed: true };
      return { isAllowed: false };
    },
  });
