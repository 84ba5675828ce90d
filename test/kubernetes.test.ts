// The Kubernetes manifests (deploy/kubernetes): the base and the example overlay rendered with
// `kubectl kustomize`, and what must hold of them for the service to run as docs/operations.md
// says: each Deployment in its role on settings the service accepts, probes on the service's own
// endpoints, selectors that find the pods, room for the drain at a stop, and no secret in plain
// text. Nothing is applied to a cluster. Without kubectl the rendering tests are skipped, saying so.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ConfigError, configVariables, loadConfig } from '../src/shared/config.js';
import { parseKeyring } from '../src/shared/secret-box.js';

const root = path.resolve(import.meta.dirname, '..');
const BASE = 'deploy/kubernetes/base';
const OVERLAY = 'deploy/kubernetes/overlays/example';

/** The value every secret of the committed manifests has, alone or as a URL's password. */
const PLACEHOLDER = 'change-me';

/** Settings that hold a password, a key or a token: only ever from a Secret. */
const SECRET_SETTINGS = [
  'DATABASE_URL',
  'CLICKHOUSE_URL',
  'PII_ENCRYPTION_KEY',
  'SIGNPOST_ADMIN_TOKEN',
  'SMTP_URL',
  'OIDC_CLIENT_SECRET',
  'METRICS_TOKEN',
];
/** The ones a split deployment on servers cannot start without. */
const REQUIRED_SECRETS = ['DATABASE_URL', 'CLICKHOUSE_URL', 'PII_ENCRYPTION_KEY', 'SIGNPOST_ADMIN_TOKEN'];

/** Why the manifests cannot be rendered here, or undefined when they can. */
function kubectlMissing(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'pipe', timeout: 30_000 });
    return undefined;
  } catch {
    return 'kubectl is not installed, so deploy/kubernetes was not rendered (CI has it)';
  }
}
const missing = kubectlMissing();

type Labels = Record<string, string>;

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels };
}

interface Probe {
  httpGet?: { path: string; port: string | number };
}

interface Container {
  name: string;
  image: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}

interface Deployment extends Resource {
  spec: {
    replicas?: number;
    selector: { matchLabels: Labels };
    template: {
      metadata: { labels: Labels };
      spec: {
        containers: Container[];
        volumes?: { name: string; emptyDir?: object }[];
        terminationGracePeriodSeconds?: number;
        enableServiceLinks?: boolean;
        automountServiceAccountToken?: boolean;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
      };
    };
  };
}

interface Service extends Resource {
  spec: { selector: Labels; ports: { name: string; port: number; targetPort: string | number }[] };
}

interface Autoscaler extends Resource {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas: number;
    maxReplicas: number;
    metrics: { type: string; resource?: { name: string; target: { type: string } } }[];
  };
}

interface DisruptionBudget extends Resource {
  spec: { selector: { matchLabels: Labels } };
}

interface ServiceMonitor extends Resource {
  spec: { selector: { matchLabels: Labels }; endpoints: { port: string; path?: string }[] };
}

interface KeyValues extends Resource {
  data?: Record<string, string>;
}

/** The objects `kubectl kustomize <dir>` renders. */
function render(dir: string): Resource[] {
  const yaml = execFileSync('kubectl', ['kustomize', path.join(root, dir)], { encoding: 'utf8', timeout: 60_000 });
  return [...parseAllDocuments(yaml)].map((doc) => {
    const [error] = doc.errors;
    if (error) throw error;
    return doc.toJS() as Resource;
  });
}

const ofKind = <T extends Resource>(resources: Resource[], kind: string): T[] =>
  resources.filter((r): r is T => r.kind === kind);

function named<T extends Resource>(resources: Resource[], kind: string, name: string): T {
  const found = ofKind<T>(resources, kind).find((r) => r.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendering`);
  return found;
}

/** Whether a selector picks an object with these labels. */
const selects = (selector: Labels, labels: Labels | undefined): boolean =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

const podLabels = (deployment: Deployment): Labels => deployment.spec.template.metadata.labels;

/** The one container of a Deployment's pods. */
function containerOf(deployment: Deployment): Container {
  const [container, ...others] = deployment.spec.template.spec.containers;
  if (!container || others.length > 0) throw new Error(`${deployment.metadata.name}: expected one container`);
  return container;
}

const decoded = (secret: KeyValues): Record<string, string> =>
  Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]),
  );

type Source = 'ConfigMap' | 'Secret' | 'literal';

/** A container's environment as the kubelet builds it (envFrom in order, then env), and where each value came from. */
function environmentOf(
  resources: Resource[],
  container: Container,
): { env: Record<string, string>; source: Record<string, Source> } {
  const env: Record<string, string> = {};
  const source: Record<string, Source> = {};
  const set = (values: Record<string, string>, from: Source) => {
    for (const [key, value] of Object.entries(values)) {
      env[key] = value;
      source[key] = from;
    }
  };
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef)
      set(named<KeyValues>(resources, 'ConfigMap', from.configMapRef.name).data ?? {}, 'ConfigMap');
    if (from.secretRef) set(decoded(named<KeyValues>(resources, 'Secret', from.secretRef.name)), 'Secret');
  }
  for (const entry of container.env ?? []) {
    const { secretKeyRef, configMapKeyRef } = entry.valueFrom ?? {};
    if (entry.value !== undefined) set({ [entry.name]: entry.value }, 'literal');
    else if (secretKeyRef) {
      const value = decoded(named<KeyValues>(resources, 'Secret', secretKeyRef.name))[secretKeyRef.key];
      if (value === undefined) throw new Error(`${entry.name}: the Secret has no ${secretKeyRef.key}`);
      set({ [entry.name]: value }, 'Secret');
    } else if (configMapKeyRef) {
      const value = named<KeyValues>(resources, 'ConfigMap', configMapKeyRef.name).data?.[configMapKeyRef.key];
      if (value === undefined) throw new Error(`${entry.name}: the ConfigMap has no ${configMapKeyRef.key}`);
      set({ [entry.name]: value }, 'ConfigMap');
    }
  }
  return { env, source };
}

/** Why a value looks like a secret (a key, a token, a URL with a password), or undefined. */
function secretLooking(value: string): string | undefined {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)) return 'a private key';
  if (URL.canParse(value) && new URL(value).password !== '') return 'a URL with a password';
  if (/[0-9a-f]{32,}/i.test(value)) return 'a long hex string';
  if (/[A-Za-z0-9+/_-]{24,}/.test(value) && /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value)) {
    return 'a long random-looking string';
  }
  return undefined;
}

/** Blank, the placeholder, or a URL whose password is the placeholder. */
const isPlaceholder = (value: string): boolean =>
  value === '' || value === PLACEHOLDER || (URL.canParse(value) && new URL(value).password === PLACEHOLDER);

/** A resource quantity (`500m`, `1`, `256Mi`) as a number of cores or bytes. */
function quantity(raw: string | number | undefined): number {
  const factors: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
  const match = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(String(raw));
  const factor = match?.[2] ? factors[match[2]] : 1;
  if (!match?.[1] || factor === undefined) throw new Error(`not a resource quantity: ${raw}`);
  return Number(match[1]) * factor;
}

/** The pause before SIGTERM, in seconds. */
function preStopSeconds(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  const [command, seconds, ...rest] = preStop.exec?.command ?? [];
  if (command !== 'sleep' || rest.length > 0)
    throw new Error(`a preStop this test does not read: ${preStop.exec?.command}`);
  return Number(seconds);
}

const ROLES = [
  ['signpost-api', { api: true, worker: false }],
  ['signpost-worker', { api: false, worker: true }],
] as const;

describe('the secret check itself', () => {
  it.each([
    ['k1:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'a long hex string'],
    ['postgres://signpost:s3cret-password@postgres:5432/signpost', 'a URL with a password'],
    ['hT8sK2qLm9Vx4Rz7Wp1Nc6Yb3Fg5Jd0E', 'a long random-looking string'],
    ['-----BEGIN RSA PRIVATE KEY-----', 'a private key'],
  ])('flags %s as %s', (value, why) => {
    expect(secretLooking(value)).toBe(why);
  });

  it.each(['https://sgnp.example', 'nats://nats.nats.svc.cluster.local:4222', '10.244.0.0/16', '25000', 'production'])(
    'lets the setting %s pass',
    (value) => {
      expect(secretLooking(value)).toBeUndefined();
    },
  );

  it('names only settings the service reads as secret settings', () => {
    const known = new Set(configVariables().map((v) => v.env));
    expect(SECRET_SETTINGS.filter((key) => !known.has(key))).toEqual([]);
  });
});

describe.skipIf(missing !== undefined)(
  missing === undefined ? 'deploy/kubernetes' : `deploy/kubernetes (skipped: ${missing})`,
  () => {
    describe.each([
      ['the base', BASE],
      ['the example overlay', OVERLAY],
    ])('%s', (_name, dir) => {
      let resources: Resource[] = [];
      beforeAll(() => {
        resources = render(dir);
      });
      const deployment = (name: string) => named<Deployment>(resources, 'Deployment', name);
      const deployments = () => ofKind<Deployment>(resources, 'Deployment');

      it('renders the Deployments, Services, autoscaler, budgets, settings and ServiceMonitor', () => {
        const names = resources
          .map((r) => `${r.kind}/${r.metadata.name.replace(/^(signpost-(?:config|secrets))-[a-z0-9]{10}$/, '$1')}`)
          .sort();
        expect(names).toEqual(
          [
            'ConfigMap/signpost-config',
            'Deployment/signpost-api',
            'Deployment/signpost-worker',
            'HorizontalPodAutoscaler/signpost-api',
            ...(dir === OVERLAY ? ['Namespace/signpost'] : []),
            'PodDisruptionBudget/signpost-api',
            'PodDisruptionBudget/signpost-worker',
            'Secret/signpost-secrets',
            'Service/signpost-api',
            'Service/signpost-worker',
            'ServiceMonitor/signpost',
          ].sort(),
        );
      });

      it.each(ROLES)('runs %s in its role, on settings the service accepts', (name, roles) => {
        const container = containerOf(deployment(name));
        const { env, source } = environmentOf(resources, container);
        // Set on the Deployment itself, so the shared ConfigMap cannot give both the same role.
        expect(source.SIGNPOST_ROLES).toBe('literal');
        const known = new Set(configVariables().map((v) => v.env));
        expect(Object.keys(env).filter((key) => !known.has(key))).toEqual([]);
        // The placeholder operator token is refused (below); the rest is what the pods get.
        const config = loadConfig({ ...env, SIGNPOST_ADMIN_TOKEN: 'a'.repeat(32) });
        expect(config.server.roles).toEqual(roles);
        expect(config.bus.natsUrl).toBeDefined();
        expect(config.stores.databaseUrl).toBeDefined();
        expect(config.stores.clickhouseUrl).toBeDefined();
        expect(config.server.host).toBe('0.0.0.0');
      });

      it.each(ROLES)('keeps %s from starting on the placeholder secrets', (name) => {
        const { env } = environmentOf(resources, containerOf(deployment(name)));
        expect(() => loadConfig(env)).toThrow(ConfigError);
        expect(() => loadConfig(env)).toThrow(/SIGNPOST_ADMIN_TOKEN/);
        expect(() => parseKeyring(env.PII_ENCRYPTION_KEY ?? '')).toThrow();
      });

      it.each(ROLES)('probes %s on /readyz and /healthz of PORT, and scrapes it on METRICS_PORT', (name) => {
        const container = containerOf(deployment(name));
        const { env } = environmentOf(resources, container);
        const port = (portName: string) => container.ports?.find((p) => p.name === portName)?.containerPort;
        expect(port('http')).toBe(Number(env.PORT));
        expect(port('metrics')).toBe(Number(env.METRICS_PORT));
        expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      });

      it.each(ROLES)('asks for CPU and memory for %s, within its limits', (name) => {
        const { requests, limits } = containerOf(deployment(name)).resources ?? {};
        for (const resource of ['cpu', 'memory']) {
          expect(quantity(requests?.[resource])).toBeGreaterThan(0);
          expect(quantity(limits?.[resource])).toBeGreaterThanOrEqual(quantity(requests?.[resource]));
        }
      });

      it.each(ROLES)('runs %s as a non-root user, on a read-only root, without privilege escalation', (name) => {
        const pod = deployment(name).spec.template.spec;
        const container = containerOf(deployment(name));
        expect(pod.securityContext?.runAsNonRoot).toBe(true);
        expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
        expect(container.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        expect(container.securityContext?.capabilities?.drop).toContain('ALL');
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(pod.enableServiceLinks).toBe(false);
        // What the service writes goes to volumes, the root being read-only.
        const { env } = environmentOf(resources, container);
        for (const dirPath of [env.DATA_DIR, '/tmp']) {
          const mount = container.volumeMounts?.find((m) => m.mountPath === dirPath);
          expect(mount, `a volume at ${dirPath}`).toBeDefined();
          expect(pod.volumes?.find((v) => v.name === mount?.name)?.emptyDir).toBeDefined();
        }
      });

      it.each(ROLES)('gives %s the time its drain may take before it is killed', (name) => {
        const container = containerOf(deployment(name));
        const { env } = environmentOf(resources, container);
        const grace = deployment(name).spec.template.spec.terminationGracePeriodSeconds ?? 30;
        // The preStop pause, SHUTDOWN_TIMEOUT_MS for the drain, and a few seconds to close the stores.
        expect(grace).toBeGreaterThanOrEqual(preStopSeconds(container) + Number(env.SHUTDOWN_TIMEOUT_MS) / 1000 + 5);
      });

      it('pauses the API before SIGTERM, so the endpoints drop it before its port closes', () => {
        expect(preStopSeconds(containerOf(deployment('signpost-api')))).toBeGreaterThanOrEqual(3);
      });

      it('sends the Service to the API pods alone, on their HTTP port', () => {
        const service = named<Service>(resources, 'Service', 'signpost-api');
        expect(selects(service.spec.selector, podLabels(deployment('signpost-api')))).toBe(true);
        expect(selects(service.spec.selector, podLabels(deployment('signpost-worker')))).toBe(false);
        expect(service.spec.ports.find((p) => p.name === 'http')?.targetPort).toBe('http');
      });

      it('gives each Deployment a selector its own pods match, and no other', () => {
        for (const d of deployments()) {
          const matched = deployments().filter((other) => selects(d.spec.selector.matchLabels, podLabels(other)));
          expect(matched.map((m) => m.metadata.name)).toEqual([d.metadata.name]);
        }
      });

      it('scales the API Deployment on CPU, which sets no replica count of its own', () => {
        const [autoscaler, ...others] = ofKind<Autoscaler>(resources, 'HorizontalPodAutoscaler');
        expect(others).toEqual([]);
        expect(autoscaler?.apiVersion).toBe('autoscaling/v2');
        expect(autoscaler?.spec.scaleTargetRef).toEqual({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'signpost-api',
        });
        expect(autoscaler?.spec.metrics).toContainEqual(
          expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
        );
        // Two at least, so the disruption budget lets a node drain while one serves.
        expect(autoscaler?.spec.minReplicas).toBeGreaterThanOrEqual(2);
        expect(autoscaler?.spec.maxReplicas).toBeGreaterThanOrEqual(autoscaler?.spec.minReplicas ?? Infinity);
        expect(deployment('signpost-api').spec.replicas).toBeUndefined();
      });

      it('covers each Deployment with one disruption budget selecting its pods', () => {
        const budgets = ofKind<DisruptionBudget>(resources, 'PodDisruptionBudget');
        for (const budget of budgets) {
          expect(deployments().filter((d) => selects(budget.spec.selector.matchLabels, podLabels(d)))).toHaveLength(1);
        }
        for (const d of deployments()) {
          expect(budgets.filter((b) => selects(b.spec.selector.matchLabels, podLabels(d)))).toHaveLength(1);
        }
      });

      it("scrapes every Deployment's /metrics through a Service the ServiceMonitor selects", () => {
        const monitor = named<ServiceMonitor>(resources, 'ServiceMonitor', 'signpost');
        expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
        const [endpoint] = monitor.spec.endpoints;
        expect(endpoint).toMatchObject({ port: 'metrics', path: '/metrics' });
        // Without a namespaceSelector, a ServiceMonitor looks in its own namespace only.
        const scraped = ofKind<Service>(resources, 'Service').filter(
          (s) =>
            s.metadata.namespace === monitor.metadata.namespace &&
            selects(monitor.spec.selector.matchLabels, s.metadata.labels),
        );
        expect(scraped.map((s) => s.metadata.name)).toContain('signpost-api');
        for (const d of deployments()) {
          const through = scraped.filter(
            (s) =>
              selects(s.spec.selector, podLabels(d)) &&
              s.spec.ports.some((p) => p.name === endpoint?.port && p.targetPort === 'metrics'),
          );
          expect(through, `a scraped Service in front of ${d.metadata.name}`).not.toHaveLength(0);
        }
      });

      it('keeps every secret setting in the Secret, and no secret in plain text', () => {
        for (const configMap of ofKind<KeyValues>(resources, 'ConfigMap')) {
          for (const [key, value] of Object.entries(configMap.data ?? {})) {
            expect(SECRET_SETTINGS, `ConfigMap key ${key}`).not.toContain(key);
            expect(secretLooking(value), `ConfigMap ${key}=${value}`).toBeUndefined();
          }
        }
        const secrets = ofKind<KeyValues>(resources, 'Secret');
        expect(secrets).toHaveLength(1);
        const values = decoded(secrets[0]!);
        expect(Object.keys(values)).toEqual(expect.arrayContaining(REQUIRED_SECRETS));
        for (const [key, value] of Object.entries(values)) {
          expect(isPlaceholder(value), `the committed Secret holds a real-looking ${key}`).toBe(true);
        }
        for (const d of deployments()) {
          const container = containerOf(d);
          for (const entry of container.env ?? []) {
            if (entry.value !== undefined) expect(secretLooking(entry.value), entry.name).toBeUndefined();
          }
          const { source } = environmentOf(resources, container);
          for (const key of SECRET_SETTINGS.filter((k) => k in source)) {
            expect(source[key], `${d.metadata.name}: ${key}`).toBe('Secret');
          }
          expect(REQUIRED_SECRETS.filter((k) => source[k] !== 'Secret')).toEqual([]);
        }
      });
    });

    describe('the example overlay', () => {
      let resources: Resource[] = [];
      beforeAll(() => {
        resources = render(OVERLAY);
      });

      it('runs a fixed image tag, never latest', () => {
        for (const d of ofKind<Deployment>(resources, 'Deployment')) {
          const { image } = containerOf(d);
          const tag = /:([^/:@]+)$/.exec(image)?.[1];
          expect(image.includes('@sha256:') || (tag !== undefined && tag !== 'latest'), image).toBe(true);
        }
      });

      it('points at NATS from its Helm chart, and at PostgreSQL and ClickHouse in the cluster', () => {
        const { env } = environmentOf(resources, containerOf(named(resources, 'Deployment', 'signpost-worker')));
        expect(env.NATS_URL).toBe('nats://nats.nats.svc.cluster.local:4222');
        expect(new URL(env.DATABASE_URL ?? '').hostname).toMatch(/\.svc\.cluster\.local$/);
        expect(new URL(env.CLICKHOUSE_URL ?? '').hostname).toMatch(/\.svc\.cluster\.local$/);
      });

      it('puts everything into its namespace, with its replica counts', () => {
        for (const r of resources.filter((r) => r.kind !== 'Namespace')) {
          expect(r.metadata.namespace, `${r.kind}/${r.metadata.name}`).toBe('signpost');
        }
        expect(named<Deployment>(resources, 'Deployment', 'signpost-worker').spec.replicas).toBe(2);
        expect(named<Autoscaler>(resources, 'HorizontalPodAutoscaler', 'signpost-api').spec).toMatchObject({
          minReplicas: 3,
          maxReplicas: 20,
        });
      });
    });
  },
);
