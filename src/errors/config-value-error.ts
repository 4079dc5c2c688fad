/**
 * The one error of a configuration value that cannot be used. Every settings reader throws it (or one of its
 * subclasses, which only word the message their own way); `xroute validate` turns it into a problem naming the
 * property (src/config/config-issues.ts) and the runtime reports it as the component's FAILED status.
 *
 * The message names the component, the property and what was expected; the value a user wrote is quoted, except
 * under a secret key (Password, KeyPassphrase, ...), where it is masked.
 */
import { MASK, redactText } from '../logging/redact';
import { isSecretProperty } from '../foundation/secret-properties';
import { XrouteError } from '../foundation/xroute-error';

export interface ConfigValueFields {
  /** The component's Name ("" when a shared module does not know it). */
  readonly component: string;
  /** Path of the property inside the component configuration, e.g. "Port" or "Ruleset/0/Threshold". */
  readonly property: string;
  /** What a usable value looks like, in words: "an integer >= 1", "a readable PEM file". */
  readonly expected: string;
  /** The value as configured; undefined when it is absent. */
  readonly got?: unknown;
  /** The error that made the value unusable (a file system error, a parser's error). */
  readonly cause?: unknown;
}

/** The value as a message shows it: masked under a secret property, else JSON with URI passwords masked. */
function shownConfigValue(property: string, got: unknown): string {
  if (got === undefined) return 'is missing';
  if (isSecretProperty(property)) return MASK;
  return redactText(JSON.stringify(got) ?? String(got));
}

/** How a subclass words its message; the fields stay the same. */
export interface ConfigValueWording {
  /** What is wrong, without the component and property (the message is "<component>: <property>: <detail>"). */
  readonly detail?: string;
  /** The whole message, for subclasses that name the place their own way ("ruleset \"r\", key K: ..."). */
  readonly message?: string;
}

export class ConfigValueError extends XrouteError {
  readonly component: string;
  readonly property: string;
  readonly expected: string;
  /** The value as configured, masked under a secret property. */
  readonly got: unknown;
  private readonly detailText: string;

  /**
   * Without a wording the message is `<component>: <property> "<got>": expected <expected>` (or
   * `<property> is missing: expected ...`).
   */
  constructor(fields: ConfigValueFields, wording: ConfigValueWording = {}) {
    const where = [fields.component, fields.property].filter((s) => s !== '').join(': ');
    const detail = wording.detail ?? `${shownConfigValue(fields.property, fields.got)}: expected ${fields.expected}`;
    const sep = wording.detail === undefined ? ' ' : ': ';
    const message = wording.message ?? (where === '' ? detail : `${where}${sep}${detail}`);
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'ConfigValueError';
    this.component = fields.component;
    this.property = fields.property;
    this.expected = fields.expected;
    this.got = fields.got === undefined || !isSecretProperty(fields.property) ? fields.got : MASK;
    this.detailText = detail;
  }

  /** The message without the component and property, for reports that name them already. */
  detail(): string {
    return this.detailText;
  }
}
