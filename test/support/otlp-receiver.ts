/**
 * An OTLP/HTTP trace collector inside a test: a node:http server that takes what xroute's exporter really sends
 * (POST /v1/traces, Content-Type application/json, the OTLP JSON encoding) and decodes it into flat spans.
 * stop() closes the port (the exporter then sees connection refused) and resume() listens on the same port again.
 */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';

type AttributeValue = string | number | boolean | undefined;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Undefined for a root span. */
  readonly parentSpanId?: string;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

export const SPAN_KIND = { internal: 1, producer: 4, consumer: 5 } as const;

interface OtlpKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number };
}

interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue;
  }
  return out;
}

/** The exporter writes ids as hex in JSON; an id that is not hex is base64 (the protobuf JSON mapping). */
function hexId(id: string | undefined): string | undefined {
  if (id === undefined || id === '') return undefined;
  return /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}

function decodeOtlpJson(body: string): ReceivedSpan[] {
  const json = JSON.parse(body) as OtlpExport;
  const spans: ReceivedSpan[] = [];
  for (const rs of json.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const parentSpanId = hexId(s.parentSpanId);
        spans.push({
          traceId: hexId(s.traceId) as string,
          spanId: hexId(s.spanId) as string,
          ...(parentSpanId !== undefined ? { parentSpanId } : {}),
          name: s.name,
          kind: s.kind,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          status: s.status?.code ?? 0,
          resource,
        });
      }
    }
  }
  return spans;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received, and their content types. */
  readonly contentTypes: string[] = [];
  private server: http.Server;
  private port = 0;

  private constructor() {
    this.server = this.createServer();
  }

  static async start(): Promise<OtlpReceiver> {
    const r = new OtlpReceiver();
    await r.listen();
    return r;
  }

  /** The value for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}/v1/traces`;
  }

  spansOf(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Closes the port: exports fail with connection refused until resume(). */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async resume(): Promise<void> {
    this.server = this.createServer();
    await this.listen();
  }

  private createServer(): http.Server {
    return http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.contentTypes.push(String(req.headers['content-type']));
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
          res.writeHead(415).end();
          return;
        }
        this.spans.push(...decodeOtlpJson(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}
