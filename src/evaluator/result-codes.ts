/**
 * The MessageEvaluator's return codes and the text it writes to RCField: "0" SUCCESS, "1" FAILURE,
 * "-1" EXCEPTION (the ruleset failed, or no ruleset could be found or run).
 */
import { FAILURE, SUCCESS } from '../rules/ruleset';

/** The return code as written to RCField (a comparison chain: "-1" is no array index for a keyed lookup). */
export const codeText = (code: number): string => (code === SUCCESS ? '0' : code === FAILURE ? '1' : '-1');
