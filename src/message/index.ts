export * from './message';
export * from './json-form';
