/**
 * A Store is a flat key → bytes namespace ("runs/<id>/sft_corpus/shard-000001.jsonl"), on the local
 * filesystem (the default) or on S3 / any S3-compatible server. Writes are atomic: a reader sees
 * the whole object or none of it (local: write-then-rename; S3: a single PUT).
 */
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";

type S3Sdk = typeof import("@aws-sdk/client-s3");
const require = createRequire(import.meta.url);
/** The AWS SDK (≈ 0.3 s of CPU to load), loaded by the first S3Store rather than by every process
 *  that imports lib/store: the same module an `import` gives (its package resolves to CommonJS). */
const s3Sdk = (): S3Sdk => require("@aws-sdk/client-s3") as S3Sdk;

export interface Store {
  /** Where it points (a path or s3://bucket/prefix). */
  readonly uri: string;
  put(key: string, data: string | Uint8Array): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Keys under a prefix (recursive), sorted. */
  list(prefix?: string): Promise<string[]>;
  delete(key: string): Promise<void>;
}

function checkKey(key: string): string {
  if (!key || key.startsWith("/") || normalize(key).split(sep).includes("..")) throw new Error(`bad store key: ${JSON.stringify(key)}`);
  return key;
}

export class LocalStore implements Store {
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }
  get uri(): string {
    return this.root;
  }
  async put(key: string, data: string | Uint8Array): Promise<void> {
    const file = join(this.root, checkKey(key));
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.partial`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  }
  async get(key: string): Promise<Buffer | null> {
    try {
      return readFileSync(join(this.root, checkKey(key)));
    } catch {
      return null;
    }
  }
  async exists(key: string): Promise<boolean> {
    return existsSync(join(this.root, checkKey(key)));
  }
  async list(prefix = ""): Promise<string[]> {
    const out: string[] = [];
    const walk = (dir: string, rel: string) => {
      if (!existsSync(dir)) return;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(join(dir, e.name), r);
        else if (!e.name.endsWith(".partial") && r.startsWith(prefix)) out.push(r);
      }
    };
    // start at the deepest directory the prefix names
    const base = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    walk(join(this.root, base), base);
    return out.sort();
  }
  async delete(key: string): Promise<void> {
    rmSync(join(this.root, checkKey(key)), { force: true });
  }
  /** Size in bytes (for listings). */
  size(key: string): number {
    return statSync(join(this.root, key)).size;
  }
}

export interface S3StoreOptions {
  bucket: string;
  prefix?: string;
  /** An S3-compatible endpoint (default: AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, else AWS). */
  endpoint?: string;
  region?: string;
  /** Path-style addressing (needed by most S3-compatible servers; default: on when an endpoint is set). */
  forcePathStyle?: boolean;
  credentials?: S3ClientConfig["credentials"];
}

export class S3Store implements Store {
  readonly client: S3Client;
  private readonly sdk = s3Sdk();
  readonly bucket: string;
  readonly prefix: string;
  constructor(o: S3StoreOptions) {
    const endpoint = o.endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
    // Region and credentials come from the standard AWS configuration unless given.
    this.client = new this.sdk.S3Client({ endpoint, region: o.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1", forcePathStyle: o.forcePathStyle ?? !!endpoint, ...(o.credentials ? { credentials: o.credentials } : {}) });
    this.bucket = o.bucket;
    this.prefix = (o.prefix ?? "").replace(/^\/+|\/+$/g, "");
  }
  get uri(): string {
    return `s3://${this.bucket}${this.prefix ? `/${this.prefix}` : ""}`;
  }
  private k(key: string): string {
    return this.prefix ? `${this.prefix}/${checkKey(key)}` : checkKey(key);
  }
  async put(key: string, data: string | Uint8Array): Promise<void> {
    await this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.k(key), Body: typeof data === "string" ? Buffer.from(data) : data }));
  }
  async get(key: string): Promise<Buffer | null> {
    // (a body shorter than the object's Content-Length is a cut read, not the object: asked again,
    // twice at most — a loaded S3-compatible server on loopback once answered a manifest's GET with
    // an empty body, and the layout read it as a broken manifest)
    for (let attempt = 0; ; attempt++) {
      let body: Buffer;
      let length: number | undefined;
      try {
        const r = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
        body = Buffer.from(await r.Body!.transformToByteArray());
        length = r.ContentLength;
      } catch (e) {
        if ((e as { name?: string }).name === "NoSuchKey" || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw e;
      }
      if (length === undefined || body.length === length) return body;
      if (attempt === 2) throw new Error(`${this.uri}/${key}: read ${body.length} of its ${length} bytes, three times`);
    }
  }
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
      return true;
    } catch {
      return false;
    }
  }
  async list(prefix = ""): Promise<string[]> {
    const full = this.prefix ? `${this.prefix}/${prefix}` : prefix;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: full, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) keys.push(this.prefix ? o.Key.slice(this.prefix.length + 1) : o.Key);
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
  async delete(key: string): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
  }
}

/** A store from a URI: s3://bucket/prefix, or a local path. */
export function openStore(uri: string, s3: Omit<S3StoreOptions, "bucket" | "prefix"> = {}): Store {
  const m = uri.match(/^s3:\/\/([^/]+)\/?(.*)$/);
  if (m) return new S3Store({ ...s3, bucket: m[1]!, prefix: m[2] });
  return new LocalStore(uri);
}
