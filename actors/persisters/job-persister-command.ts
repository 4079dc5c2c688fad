/**
 * The command a JobPersister runs for a request, from its `Script` template.
 *
 * Without a shell (the default) the Script is split into arguments BEFORE placeholders are filled: a string
 * on whitespace, a list element by element. Each argument is then rendered on its own, so a placeholder's
 * value always stays inside the argument it was written in, whatever spaces, quotes or `;` it holds: a
 * message cannot inject shell syntax or extra arguments. With `Shell: "true"` the whole rendered Script is
 * run by /bin/sh -c, values unquoted: the operator's explicit choice (documented).
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import { Message } from '../../src/message/message';
import { Template } from '../../src/rules/template';
import { ConfigValue } from '../../src/runtime/component';
import { ComponentConfigError } from '../support/config-values';

export interface CommandLine {
  readonly file: string;
  readonly args: readonly string[];
}

/** The program name rendered empty for this request. */
class EmptyCommandError extends XrouteError {
  constructor(
    readonly component: string,
    readonly script: string,
  ) {
    super(`${component}: Script ${JSON.stringify(script)} gives an empty program name for this request`);
    this.name = 'EmptyCommandError';
  }
}

export interface JobCommand {
  readonly shell: boolean;
  /** The Script as configured (for messages). */
  readonly source: string;
  render(msg: Message): CommandLine;
}

export function compileJobCommand(component: string, script: ConfigValue | undefined, shell: boolean): JobCommand {
  const words = scriptWords(component, script);
  const where = { component, key: 'Script' };
  const source = words.join(' ');
  if (shell) {
    const template = new Template(source, { where });
    return { shell, source, render: (msg) => ({ file: '/bin/sh', args: ['-c', template.format(msg)] }) };
  }
  const templates = words.map((w) => new Template(w, { where }));
  return {
    shell,
    source,
    render: (msg) => {
      const [file, ...args] = templates.map((t) => t.format(msg));
      if (file.trim() === '') throw new EmptyCommandError(component, source);
      return { file, args };
    },
  };
}

function scriptWords(component: string, script: ConfigValue | undefined): string[] {
  const expected = 'a command string or a non-empty list of arguments';
  if (typeof script === 'string') {
    const words = script
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0) throw new ComponentConfigError(component, 'Script', script, expected);
    return words;
  }
  if (Array.isArray(script) && script.length > 0 && script.every((w): w is string => typeof w === 'string') && script[0].trim() !== '') return script;
  throw new ComponentConfigError(component, 'Script', script, expected);
}
