export * from './calls';
export * from './customers';
export * from './follow-ups';
export * from './jobs';
export * from './org';
export * from './pools';
export * from './settings';
