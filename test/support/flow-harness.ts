/**
 * Runs a whole flow of test components from its topology JSON, without a file: what tests of the flow's own
 * operations (pause, resume, drain, the admin routes) use. The one-component counterpart is component-harness.ts.
 */
import { buildTopology, Topology } from '../../src/config/topology';
import { ComponentStatusView, Flow, FlowOptions } from '../../src/runtime/flow';
import { AnyComponentDefinition, ComponentRegistry, Role } from '../../src/runtime/component';
import { waitFor } from './component-harness';

const OPERATIONS: Record<Role, string> = { receiver: 'get', node: 'forward', persister: 'store' };

/** A definition of a test component of `role` named `className`, created by `create`. */
export function testComponent(role: Role, className: string, create: AnyComponentDefinition['create'], description = `test ${role}`): AnyComponentDefinition {
  return { className, role, operations: [OPERATIONS[role]], description, schema: { properties: {} }, create };
}

/** The topology of `json` (its Name names the file /t/NAME.json) over the components of `registry`. */
export function testTopology(json: Record<string, unknown>, registry: ComponentRegistry): Topology {
  return buildTopology(json, `/t/${String(json.Name)}.json`, registry);
}

/** The flow of `json`, started at once (its components start in turns of their own after). */
export function startTestFlow(json: Record<string, unknown>, registry: ComponentRegistry, options: Omit<FlowOptions, 'registry'> = {}): Flow {
  return Flow.start(testTopology(json, registry), { ...options, registry });
}

/** The flow of `json`, once each component named in `running` reports RUNNING. */
export async function startRunningFlow(json: Record<string, unknown>, registry: ComponentRegistry, running: readonly string[]): Promise<Flow> {
  const flow = startTestFlow(json, registry);
  await waitFor(() => running.every((name) => componentOf(flow, name)?.status === 'RUNNING'), `${running.join(', ')} running`);
  return flow;
}

/** The status of the flow's component `name`. */
export function componentOf(flow: Flow, name: string): ComponentStatusView | undefined {
  return flow.status().components.find((c) => c.name === name);
}
