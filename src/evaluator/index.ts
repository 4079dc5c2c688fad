/**
 * The MessageEvaluator engine: a transport-free class compiled from a MessageEvaluator component
 * configuration. The MessageEvaluator actor (actors/persisters/message-evaluator.ts) is a thin adapter
 * around it and `xroute eval` drives it directly; both import it from ./engine, as every module of src/ and actors/
 * imports from the module that defines a name (eslint.config.mjs, the barrel rule). This index is for the tests.
 */
export { MessageEvaluatorEngine } from './engine';
export type { MessageEvaluatorOptions } from './options';
