export * from './xqueue';
export * from './partition';
export * from './errors';
