/**
 * The engine's binary snapshot: a small JSON header describing sections, then the raw bytes of
 * each typed array or string column, 8-byte aligned, so loading is a file read plus views on it.
 * Written to a temporary file, fsynced and renamed over the old one: a crash leaves the old or the new
 * snapshot, never half of one.
 */
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { StringColumn } from '../documents/string-column.ts';

const MAGIC = 'FLSEARCH';
const ALIGN = 8;

type ArrayKind = 'u8' | 'u32' | 'i32';
type Section =
  | { name: string; kind: ArrayKind; offset: number; bytes: number }
  | { name: string; kind: 'str'; offset: number; bytes: number; offsetsSection: string };

export type SnapshotValue = Uint8Array | Uint32Array | Int32Array | StringColumn;

export async function writeSnapshot(file: string, meta: unknown, values: Record<string, SnapshotValue>): Promise<number> {
  const sections: Section[] = [];
  // Text is encoded only as it is written (one column at a time, not the whole snapshot in memory at once).
  const chunks: (Buffer | string)[] = [];
  let offset = 0;
  const push = (chunk: Buffer | string) => {
    chunks.push(chunk);
    offset += typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
    const pad = (ALIGN - (offset % ALIGN)) % ALIGN;
    if (pad) {
      chunks.push(Buffer.alloc(pad));
      offset += pad;
    }
  };
  for (const [name, v] of Object.entries(values)) {
    if (v instanceof StringColumn) {
      const offsName = `${name}.offsets`;
      sections.push({ name: offsName, kind: 'u32', offset, bytes: v.offsets.byteLength });
      push(Buffer.from(v.offsets.buffer, v.offsets.byteOffset, v.offsets.byteLength));
      sections.push({ name, kind: 'str', offset, bytes: Buffer.byteLength(v.text, 'utf8'), offsetsSection: offsName });
      push(v.text);
    } else {
      const kind: ArrayKind = v instanceof Uint8Array ? 'u8' : v instanceof Int32Array ? 'i32' : 'u32';
      sections.push({ name, kind, offset, bytes: v.byteLength });
      push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    }
  }
  const header = Buffer.from(JSON.stringify({ meta, sections }), 'utf8');
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(1, 8); // format version
  prefix.writeUInt32LE(header.length, 12);
  const headPad = (ALIGN - ((16 + header.length) % ALIGN)) % ALIGN;

  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writev([prefix, header, Buffer.alloc(headPad)]);
    // writev has a per-call limit on buffers; write in groups, a text section on its own once encoded.
    const group: Buffer[] = [];
    for (const chunk of chunks) {
      if (typeof chunk === 'string') {
        if (group.length) await fh.writev(group.splice(0));
        const buf = Buffer.from(chunk, 'utf8');
        for (let at = 0; at < buf.length; ) at += (await fh.write(buf, at, buf.length - at)).bytesWritten;
        continue;
      }
      group.push(chunk);
      if (group.length === 64) await fh.writev(group.splice(0));
    }
    if (group.length) await fh.writev(group);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
  await syncDir(path.dirname(file));
  return 16 + header.length + headPad + offset;
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic.
  }
}

export interface LoadedSnapshot {
  meta: unknown;
  get<T extends SnapshotValue>(name: string): T;
  /** Whether the snapshot holds a section (one added since older snapshots were written). */
  has(name: string): boolean;
}

/**
 * Reads a snapshot, or null if there is none. Throws on a file that is not a snapshot. Each section is read on its own:
 * arrays into buffers of their own, text decoded from a passing buffer, so the file's bytes are not kept beside the
 * strings made of them (at 750,000 parts that was 160 MB of text held twice for as long as the index lived).
 */
export async function readSnapshot(file: string): Promise<LoadedSnapshot | null> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const readAt = async (target: Uint8Array, position: number) => {
      for (let at = 0; at < target.length; ) {
        const { bytesRead } = await fh.read(target, at, target.length - at, position + at);
        if (bytesRead === 0) throw new Error(`${file} ends early: a torn search snapshot`);
        at += bytesRead;
      }
    };
    const prefix = Buffer.alloc(16);
    const { bytesRead } = await fh.read(prefix, 0, 16, 0);
    if (bytesRead < 16 || prefix.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${file} is not a search snapshot`);
    const version = prefix.readUInt32LE(8);
    if (version !== 1) throw new Error(`${file} has snapshot format ${version}, expected 1`);
    const headerLen = prefix.readUInt32LE(12);
    const header = Buffer.alloc(headerLen);
    await readAt(header, 16);
    const { meta, sections } = JSON.parse(header.toString('utf8')) as { meta: unknown; sections: Section[] };
    const dataStart = 16 + headerLen + ((ALIGN - ((16 + headerLen) % ALIGN)) % ALIGN);
    const arrays = new Map<string, Uint8Array | Uint32Array | Int32Array>();
    const texts = new Map<string, string>();
    for (const s of sections) {
      if (s.kind === 'str') {
        const bytes = Buffer.allocUnsafe(s.bytes);
        await readAt(bytes, dataStart + s.offset);
        texts.set(s.name, bytes.toString('utf8'));
        continue;
      }
      const buffer = new ArrayBuffer(s.bytes);
      await readAt(new Uint8Array(buffer), dataStart + s.offset);
      arrays.set(s.name, s.kind === 'u8' ? new Uint8Array(buffer) : s.kind === 'u32' ? new Uint32Array(buffer) : new Int32Array(buffer));
    }
    const byName = new Map(sections.map((s) => [s.name, s]));
    return {
      meta,
      get<T extends SnapshotValue>(name: string): T {
        const s = byName.get(name);
        if (!s) throw new Error(`search snapshot has no section ${name}`);
        if (s.kind !== 'str') return arrays.get(name) as T;
        return new StringColumn(texts.get(name)!, arrays.get(s.offsetsSection) as Uint32Array) as T;
      },
      has: (name: string) => byName.has(name),
    };
  } finally {
    await fh.close();
  }
}

export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
