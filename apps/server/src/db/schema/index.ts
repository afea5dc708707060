export * from './customers';
export * from './jobs';
export * from './org';
export * from './settings';
