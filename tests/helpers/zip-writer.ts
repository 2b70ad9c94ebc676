/**
 * A minimal ZIP writer for tests and fixture scripts (APPNOTE 4.3: local headers, central
 * directory, end record). An entry can be stored (0), deflated (8) or zstd-compressed (93, bytes
 * from the `zstd` command, Debian package zstd), and its compressed bytes, CRC and declared size
 * overridden, so broken archives and zip bombs can be made on purpose. Times are fixed, so the
 * same entries give the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { deflateSync } from 'fflate';
import { zipCrc32 } from '../../src/import/zip.js';

const enc = new TextEncoder();

export interface ZipInput {
  name: string;
  data: Uint8Array;
  method: 0 | 8 | 93 | 12;
  /** Overrides for broken archives. */
  declaredSize?: number;
  crc?: number;
  rawCompressed?: Uint8Array;
}

function zstd(data: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync('zstd', ['-q', '-c', '-19', '--no-check'], { input: data }));
}

export function zip(entries: ZipInput[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const compressed = e.rawCompressed ?? (e.method === 0 ? e.data : e.method === 8 ? deflateSync(e.data, { level: 6 }) : e.method === 93 ? zstd(e.data) : e.data);
    const crc = e.crc ?? zipCrc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const version = e.method === 93 ? 63 : 20;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, version, true);
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint16(8, e.method, true);
    local.setUint16(10, 0, true); // time 00:00:00
    local.setUint16(12, 0x21, true); // date 1980-01-01: fixed, so the bytes are reproducible
    local.setUint32(14, crc, true);
    local.setUint32(18, compressed.length, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    locals.push(new Uint8Array(local.buffer), name, compressed);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, version, true);
    central.setUint16(6, version, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, e.method, true);
    central.setUint16(12, 0, true);
    central.setUint16(14, 0x21, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, compressed.length, true);
    central.setUint32(24, size, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + compressed.length;
  }
  const cdSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, cdSize, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

