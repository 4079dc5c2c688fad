/**
 * What a loaded topology is, as the runtime starts it: its links and its components in start order. The loader
 * (src/config/topology.ts) builds it; the runtime (src/runtime/flow.ts) needs only these types, not the loader.
 */
import { AnyComponentDefinition, ComponentConfig, Role } from './component';
import { SupervisionPolicy } from './supervision-policy';
import { ConfigProblem } from '../errors/config-problem';

export interface OutLinkSpec {
  readonly name: string;
  readonly capacity?: number;
  readonly partition?: string;
}

export interface LinkSpec {
  readonly name: string;
  readonly capacity: number;
  readonly writers: string[];
  readonly readers: string[];
}

export interface ComponentSpec {
  readonly name: string;
  readonly role: Role;
  readonly definition: AnyComponentDefinition;
  readonly config: ComponentConfig;
  /** File holding this configuration; relative paths in it resolve against baseDir. */
  readonly file: string;
  readonly baseDir: string;
  readonly linkName: string;
  readonly outLinks: readonly OutLinkSpec[];
  readonly policy: SupervisionPolicy;
}

export interface Topology {
  readonly name: string;
  readonly file: string;
  readonly baseDir: string;
  readonly pluginDirs: readonly string[];
  readonly links: ReadonlyMap<string, LinkSpec>;
  /** In start order: persisters, then nodes, then receivers (consumers before producers). */
  readonly components: readonly ComponentSpec[];
  readonly warnings: readonly ConfigProblem[];
  /**
   * How this topology was read, for a reload (flow.reload): the loader that built it reads the next file the same
   * way and words what goes wrong as `xroute validate` does. The runtime gets it with the topology, so it never
   * imports the loader (docs/architecture.md). Absent on a topology built by hand: a reload from a file is refused.
   */
  readonly source?: TopologySource;
}

export interface TopologySource {
  /** Reads and builds a topology file (throws what the loader throws). */
  load(file: string): Topology;
  /** What `xroute validate` prints for an error `load` threw. */
  describeLoadError(error: unknown, file: string): string;
  /** What `xroute validate` prints for an error a component's settings reader threw. */
  describeSettingsError(error: unknown, spec: ComponentSpec): string;
  /** A problem of one component's property (the component named in `file`), worded as `xroute validate` words it. */
  describeProblem(where: { readonly file: string; readonly name: string }, property: string, message: string): string;
}
