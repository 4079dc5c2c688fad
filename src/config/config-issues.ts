/**
 * The one place where an error thrown while reading a component's settings becomes a problem of
 * `xroute validate`: a ConfigValueError names its property and says what was expected; anything else is
 * reported on the whole component, and JavaScript's own words (a TypeError from input nobody foresaw)
 * never reach the user.
 */
import { ConfigIssue } from '../runtime/component';
import { ConfigValueError } from '../errors/config-value-error';

const UNFORESEEN_SHAPE = 'cannot be checked: the configuration has a shape this component does not expect';

/** The validate problem an error of a settings reader stands for. */
export function issueOf(error: unknown): ConfigIssue {
  if (error instanceof ConfigValueError) return { property: error.property, message: error.detail(), severity: 'error' };
  const internal = error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || !(error instanceof Error);
  return { property: '', message: internal ? UNFORESEEN_SHAPE : error.message, severity: 'error' };
}

/** Where a settings reader reports a value it can use but that is probably not what the user meant. */
export type SettingsWarn = (property: string, message: string) => void;

/** Runs a settings reader: the warnings it reported, then the problem its error stands for (if it threw). */
export function settingsIssues(read: (warn: SettingsWarn) => unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  try {
    read((property, message) => issues.push({ property, message, severity: 'warning' }));
  } catch (e) {
    issues.push(issueOf(e));
  }
  return issues;
}
