/**
 * The files a tool gives back (labels: PDFs), as MCP resources rather than base64 in a text: each
 * is kept in the server's memory under a `delivery-sdk://files/...` URI that `resources/read`
 * answers, and saved where the server's `saveFile` says (the command's `--out` directory).
 */

/** A file in a tool's answer (the `FILE_SCHEMA` of scripts/operations/json-schema.ts). */
export interface FileReference {
  /** The resource to read. */
  readonly uri: string;
  readonly mimeType: string;
  /** Bytes. */
  readonly size: number;
  /** Where it was saved, when the server saves files. */
  readonly path?: string;
}

interface KeptFile {
  readonly name: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/** The files kept at most: the oldest goes first. Labels of 50 orders are a few hundred KB. */
const KEPT = 50;

const startsWith = (bytes: Uint8Array, text: string): boolean => [...text].every((char, at) => bytes[at] === char.charCodeAt(0));

/** The files of one server. */
export class FileShelf {
  readonly #files = new Map<string, KeptFile>();
  #count = 0;

  constructor(private readonly save: ((name: string, bytes: Uint8Array) => Promise<string>) | undefined) {}

  /** Keeps `bytes` (and saves them, when the server saves files); what the answer says of them. */
  async keep(bytes: Uint8Array, stem: string): Promise<FileReference> {
    this.#count += 1;
    const pdf = startsWith(bytes, '%PDF-');
    const name = `${stem}-${this.#count}${pdf ? '.pdf' : '.bin'}`;
    const uri = `delivery-sdk://files/${name}`;
    const mimeType = pdf ? 'application/pdf' : 'application/octet-stream';
    this.#files.set(uri, { name, mimeType, bytes });
    for (const old of this.#files.keys()) {
      if (this.#files.size <= KEPT) break;
      this.#files.delete(old);
    }
    const path = this.save === undefined ? undefined : await this.save(name, bytes);
    return { uri, mimeType, size: bytes.length, ...(path === undefined ? {} : { path }) };
  }

  /** The files kept, newest last, as `resources/list` lists them. */
  list(): Array<{ uri: string; name: string; mimeType: string; size: number }> {
    return [...this.#files].map(([uri, { name, mimeType, bytes }]) => ({ uri, name, mimeType, size: bytes.length }));
  }

  /** A kept file's contents, as `resources/read` answers them (`blob`: base64); undefined for a URI not kept. */
  read(uri: string): { uri: string; mimeType: string; blob: string } | undefined {
    const file = this.#files.get(uri);
    return file === undefined ? undefined : { uri, mimeType: file.mimeType, blob: base64(file.bytes) };
  }
}

/** Base64 without `Buffer` (the entry runs wherever the MCP SDK does), a chunk of bytes at a time. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
