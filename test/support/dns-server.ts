// A small authoritative DNS server on loopback UDP for tests: answers CNAME and A questions from a
// table the test edits while it runs, NXDOMAIN for names it does not know, and SERVFAIL for names
// it is told to fail. Enough of RFC 1035 for node:dns (c-ares) and nothing more.
import dgram from 'node:dgram';

export interface DnsRecords {
  cname?: string;
  a?: string;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, the value for DNS_RESOLVER. */
  address: string;
  set(name: string, records: DnsRecords): void;
  remove(name: string): void;
  /** Answer SERVFAIL for this name (a resolver in trouble) until remove() or set(). */
  fail(name: string): void;
  /** Answer questions about this name only after `ms` (a slow authoritative server). */
  delay(name: string, ms: number): void;
  /** Questions asked about a name so far. */
  queries(name: string): number;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_CNAME = 5;
const CLASS_IN = 1;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

const norm = (name: string) => name.toLowerCase().replace(/\.+$/, '');

function encodeName(name: string): Buffer {
  const parts = norm(name).split('.').filter(Boolean);
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'ascii')])),
    Buffer.from([0]),
  ]);
}

/** The question's name and where the question section ends (no compression in questions). */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  let offset = 12;
  const labels: string[] = [];
  for (;;) {
    const length = msg[offset]!;
    offset += 1;
    if (length === 0) break;
    labels.push(msg.subarray(offset, offset + length).toString('ascii'));
    offset += length;
  }
  const type = msg.readUInt16BE(offset);
  return { name: norm(labels.join('.')), type, end: offset + 4 };
}

function record(type: number, rdata: Buffer, ttl = 1): Buffer {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // a pointer to the question's name
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(CLASS_IN, 4);
  fixed.writeUInt32BE(ttl, 6);
  fixed.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([fixed, rdata]);
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const table = new Map<string, DnsRecords>();
  const failing = new Set<string>();
  const asked = new Map<string, number>();
  const delays = new Map<string, number>();
  const socket = dgram.createSocket('udp4');

  socket.on('message', (msg, peer) => {
    if (msg.length < 17) return;
    let question: ReturnType<typeof readQuestion>;
    try {
      question = readQuestion(msg);
    } catch {
      return;
    }
    asked.set(question.name, (asked.get(question.name) ?? 0) + 1);
    const entry = table.get(question.name);
    const answers: Buffer[] = [];
    let rcode = 0;
    if (failing.has(question.name)) rcode = RCODE_SERVFAIL;
    else if (!entry) rcode = RCODE_NXDOMAIN;
    else if (entry.cname && (question.type === TYPE_CNAME || question.type === TYPE_A))
      answers.push(record(TYPE_CNAME, encodeName(entry.cname)));
    else if (entry.a && question.type === TYPE_A)
      answers.push(record(TYPE_A, Buffer.from(entry.a.split('.').map(Number))));
    // Anything else: the name exists without that record (NODATA, an empty answer).

    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    const queryFlags = msg.readUInt16BE(2);
    // QR, the query's opcode and RD, AA, RA, and the answer code.
    header.writeUInt16BE(0x8000 | (queryFlags & 0x7800) | 0x0400 | (queryFlags & 0x0100) | 0x0080 | rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const reply = Buffer.concat([header, msg.subarray(12, question.end), ...answers]);
    const send = () => socket.send(reply, peer.port, peer.address);
    const delay = delays.get(question.name);
    if (delay) setTimeout(send, delay);
    else send();
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    set(name, records) {
      failing.delete(norm(name));
      table.set(norm(name), records);
    },
    remove(name) {
      failing.delete(norm(name));
      table.delete(norm(name));
    },
    fail(name) {
      failing.add(norm(name));
    },
    delay(name, ms) {
      delays.set(norm(name), ms);
    },
    queries: (name) => asked.get(norm(name)) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
