/**
 * examples/deploy/kubernetes.yaml, parsed (with the `yaml` package) and checked as Kubernetes would use it: the probes reach
 * the admin endpoint xroute is told to serve, the admin token and the topology come from the Secret and the
 * ConfigMap of the manifest, the topology validates, and the pod runs as a non-root user that cannot escalate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultRegistry } from '../../../actors';
import { validateFile } from '../../../src/cli/validate-file';
import { repoRoot } from '../../support/doc-pages';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
}
interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: { template: { spec: PodSpec } };
}

const documents = parseAllDocuments(fs.readFileSync(path.join(repoRoot, 'examples/deploy/kubernetes.yaml'), 'utf8'));
const resources = documents.map((d) => d.toJS() as Resource);
const ofKind = (kind: string) => resources.filter((r) => r.kind === kind);
const pod = ofKind('Deployment')[0]?.spec?.template.spec as PodSpec;
const container = pod.containers[0];
const env = (name: string) => container.env?.find((e) => e.name === name);
/** The port a probe names, as a number (a named port is looked up in the container's ports). */
const portOf = (probe: Probe | undefined) => {
  const port = probe?.httpGet?.port;
  return typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;
};

describe('the Kubernetes manifest (examples/deploy/kubernetes.yaml)', () => {
  it('is YAML without errors, holding a ConfigMap, a Secret and a Deployment of one container', () => {
    expect([documents.flatMap((d) => d.errors.map((e) => e.message)), resources.map((r) => r.kind), pod.containers.length]).toEqual([
      [],
      ['ConfigMap', 'Secret', 'Deployment'],
      1,
    ]);
  });

  it('probes liveness on /healthz and readiness on /readyz, on the port xroute serves its admin endpoint on', () => {
    const adminPort = Number(/:(\d+)$/.exec(env('XROUTE_ADMIN')?.value ?? '')?.[1]);
    expect([
      container.livenessProbe?.httpGet?.path,
      portOf(container.livenessProbe),
      container.readinessProbe?.httpGet?.path,
      portOf(container.readinessProbe),
    ]).toEqual(['/healthz', adminPort, '/readyz', adminPort]);
  });

  it('reads the admin token from a file, a key of the Secret it defines mounted where --admin-token-file names it', () => {
    const file = container.args?.[(container.args?.indexOf('--admin-token-file') ?? -2) + 1] ?? '';
    const mount = container.volumeMounts?.find((m) => m.mountPath === path.posix.dirname(file));
    const secretName = pod.volumes?.find((v) => v.name === mount?.name)?.secret?.secretName;
    const secret = ofKind('Secret').find((s) => s.metadata.name === secretName);
    expect([file, Object.keys({ ...secret?.data, ...secret?.stringData })]).toEqual([
      '/run/secrets/xroute-admin/token',
      expect.arrayContaining([path.posix.basename(file)]),
    ]);
  });

  it('keeps the admin token out of the environment, which shows in /proc/PID/environ', () => {
    expect(env('XROUTE_ADMIN_TOKEN')).toBeUndefined();
  });

  it('runs the topology of its ConfigMap, mounted where the command reads it', () => {
    const volume = pod.volumes?.find((v) => v.configMap !== undefined);
    const mount = container.volumeMounts?.find((m) => m.name === volume?.name);
    const configMap = ofKind('ConfigMap').find((c) => c.metadata.name === volume?.configMap?.name);
    const file = container.args?.[container.args.indexOf('run') + 1] ?? '';
    expect([mount?.mountPath, Object.keys(configMap?.data ?? {}).map((k) => `${mount?.mountPath}/${k}`)]).toEqual([path.posix.dirname(file), [file]]);
  });

  it('holds a topology that validates without errors', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-k8s-'));
    try {
      const file = path.join(dir, 'flow.json');
      fs.writeFileSync(file, ofKind('ConfigMap')[0].data?.['flow.json'] ?? '');
      expect(validateFile(file, defaultRegistry()).filter((p) => p.severity === 'error')).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs as a non-root user, without privilege escalation or capabilities, on a read-only root file system', () => {
    expect([pod.securityContext?.runAsNonRoot, (pod.securityContext?.runAsUser ?? 0) > 0, container.securityContext]).toEqual([
      true,
      true,
      expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }),
    ]);
  });
});
