/** Raised instead of drawing wrong or missing text; the contract module maps it to a clear 4xx. */
export class ContractPdfError extends Error {
  constructor(
    readonly code: 'UNSUPPORTED_CHARS' | 'INVALID_PDF' | 'INVALID_IMAGE' | 'KEY_UNAVAILABLE',
    message: string,
    readonly chars: string[] = [],
  ) {
    super(message);
    this.name = 'ContractPdfError';
  }
}
