/** What a MessageEvaluatorEngine needs besides its component configuration. */
import type { EvaluatorLogger, RulesetKindRegistry } from '../rules/ruleset-kinds';
import type { DisplayHook } from '../rules/ruleset';

export interface MessageEvaluatorOptions {
  /** Directory relative paths in the configuration resolve against. */
  baseDir: string;
  /** The only directories plugin modules (ClassName) are loaded from (the topology's PluginDir). */
  pluginDirs: readonly string[];
  logger?: EvaluatorLogger;
  /** Clock in epoch ms (JMSAge, time windows, :=time); defaults to Date.now. */
  clock?: () => number;
  /** Random source in [0, 1) for :=rand; defaults to Math.random. */
  random?: () => number;
  /** Called for each message a ruleset with DisplayMask > 0 handled. */
  display?: DisplayHook;
  /** The ruleset kinds the configuration may use; defaults to every shipped kind (defaultRulesetKinds()). */
  kinds?: RulesetKindRegistry;
  /**
   * Build only to check the configuration (the component's settings reader, `xroute validate`): everything is
   * compiled and validated, but no user code runs: plugin modules are found in PluginDir, never loaded or started.
   * Such an engine must not evaluate messages.
   */
  checkOnly?: boolean;
}
