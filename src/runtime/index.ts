export * from './actor';
export * from './backoff';
export * from './component';
export * from './reconnector';
export * from './supervision-policy';
export * from './drain';
