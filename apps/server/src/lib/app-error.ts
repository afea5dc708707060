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
