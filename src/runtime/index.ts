export * from './actor';
export * from '../foundation/backoff';
export * from './component';
export * from './reconnector';
export * from './supervision-policy';
export * from './drain';
