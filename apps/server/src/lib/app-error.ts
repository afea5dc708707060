import { ERRORS, type ErrorKey } from '@crm/contracts';

/** A business error from the one table in contracts; the error plugin turns it into the envelope. */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly code: number;
  readonly status: number;
  readonly data: unknown;

  constructor(key: ErrorKey, msg?: string, data: unknown = null) {
    const entry = ERRORS[key];
    super(msg ?? entry.msg);
    this.key = key;
    this.code = entry.code;
    this.status = entry.status;
    this.data = data;
  }
}

/**
 * For `.catch(asAppError('X_NOT_FOUND'))`: a refusal of the inner check (an AppError) becomes this
 * one; anything else (a failing database, a bug) passes on untouched, to be logged as a 5xx, never
 * dressed up as "not found".
 */
export const asAppError =
  (key: ErrorKey, msg?: string) =>
  (err: unknown): never => {
    if (err instanceof AppError) throw new AppError(key, msg);
    throw err;
  };

/** For `.catch(onlyRefusal(fallback))`: an AppError gives `fallback`; any other error passes on. */
export const onlyRefusal =
  <T>(fallback: T) =>
  (err: unknown): T => {
    if (err instanceof AppError) return fallback;
    throw err;
  };
