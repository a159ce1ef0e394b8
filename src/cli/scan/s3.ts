/**
 * `s3://bucket/prefix` for `scan`: list the objects under a prefix and read one, with the AWS
 * SDK's own configuration (credentials, region and endpoint from the standard environment and
 * files; `AWS_ENDPOINT_URL` or `AWS_ENDPOINT_URL_S3` for an S3-compatible server, addressed by
 * path). Requests are retried by the SDK's standard strategy (exponential backoff with jitter,
 * `AWS_MAX_ATTEMPTS`, default 5 here); a body that fails mid-read is fetched again the same way.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { ScanSource } from '../../model/scan/rows.ts';

/** `s3://bucket/prefix` → its parts, or null for anything else. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  return m ? { bucket: m[1] as string, prefix: m[2] as string } : null;
}

let client: { key: string; client: S3Client } | null = null;

/**
 * The AWS SDK, loaded on the first S3 URL: it is some hundred CommonJS modules that every other
 * command (`check` first) would otherwise load and parse at start-up (issue 38).
 */
const sdk = () => import('@aws-sdk/client-s3');

/** The S3 client of this thread, configured from the environment (made again when it changes). */
async function s3(): Promise<S3Client> {
  const { S3Client } = await sdk();
  const env = process.env;
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const key = `${endpoint}|${region}|${env.AWS_MAX_ATTEMPTS}|${env.AWS_PROFILE}`;
  if (client?.key === key) return client.client;
  const made = new S3Client({
    maxAttempts: Number(env.AWS_MAX_ATTEMPTS) || 5,
    // Without a region in the environment or the config file, the SDK refuses to start.
    ...(region
      ? { region }
      : env.AWS_CONFIG_FILE || env.AWS_PROFILE
        ? {}
        : { region: 'us-east-1' }),
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
  });
  client = { key, client: made };
  return made;
}

/**
 * The objects under an S3 prefix whose keys match `ext`, in key order, with size and ETag.
 * `path` is the key relative to the prefix (up to its last `/`).
 */
export async function listS3(url: string, ext: RegExp): Promise<ScanSource[]> {
  const at = parseS3Url(url);
  if (!at) throw new Error(`not an S3 URL: ${url}`);
  const base = at.prefix.includes('/') ? at.prefix.slice(0, at.prefix.lastIndexOf('/') + 1) : '';
  const out: ScanSource[] = [];
  let token: string | undefined;
  const [c, { ListObjectsV2Command }] = await Promise.all([s3(), sdk()]);
  do {
    const page = await c.send(
      new ListObjectsV2Command({
        Bucket: at.bucket,
        Prefix: at.prefix,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const o of page.Contents ?? []) {
      if (!o.Key || !ext.test(o.Key) || o.Key.endsWith('/')) continue;
      out.push({
        file: `s3://${at.bucket}/${o.Key}`,
        path: o.Key.slice(base.length),
        size: o.Size ?? 0,
        version: (o.ETag ?? '').replace(/"/g, ''),
      });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An object's body as a stream of chunks, read whole; a read that fails is retried (3 tries,
 * 250 ms doubling) on top of the SDK's own retries.
 * @throws Error "S3 <code>: <message> (after N tries)"
 */
export async function readS3(url: string, max: number): Promise<Uint8Array[]> {
  const at = parseS3Url(url);
  if (!at) throw new Error(`not an S3 URL: ${url}`);
  const tries = 3;
  for (let k = 1; ; k++) {
    try {
      const [c, { GetObjectCommand }] = await Promise.all([s3(), sdk()]);
      const r = await c.send(new GetObjectCommand({ Bucket: at.bucket, Key: at.prefix }));
      const chunks: Uint8Array[] = [];
      let total = 0;
      for await (const c of r.Body as AsyncIterable<Uint8Array>) {
        chunks.push(c);
        total += c.length;
        if (total > max) break;
      }
      return chunks;
    } catch (e) {
      const err = e as { name?: string; message?: string; $metadata?: { attempts?: number } };
      const permanent = err.name === 'NoSuchKey' || err.name === 'AccessDenied';
      if (permanent || k >= tries) {
        const attempts = (err.$metadata?.attempts ?? 1) * k;
        throw new Error(
          `S3 ${err.name ?? 'error'}: ${err.message ?? String(e)} (after ${attempts} tries)`,
        );
      }
      await sleep(250 * 2 ** (k - 1));
    }
  }
}
