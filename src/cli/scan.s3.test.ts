/**
 * `scan s3://bucket/prefix` against a local S3-compatible server (s3rver, started here on
 * 127.0.0.1 at a free port): the same fleet uploaded to a bucket scans to the same rows as the
 * folder (the file's name and version aside: `s3://…` and the ETag), with the endpoint and
 * credentials from the standard environment (`AWS_ENDPOINT_URL`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { makeFleet, type Fleet } from '../../scripts/genFleet.ts';
import { listTargets } from './scan/sources.ts';
import { scanFile } from './scan/worker.ts';
import { connect, sqlString } from './scan/store.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist-cli', 'cli.js');
let tmp: string;
let fleet: Fleet;
let server: S3rver;
let env: NodeJS.ProcessEnv;
let con: DuckDBConnection;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  tmp = mkdtempSync(path.join(tmpdir(), 'scan-s3-'));
  fleet = makeFleet(path.join(tmp, 'fleet'), 150);
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(tmp, 's3'),
    configureBuckets: [{ name: 'rollouts' }],
  });
  const { port } = await server.run();
  env = {
    ...process.env,
    CI: '1',
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
  };
  const s3 = new S3Client({
    endpoint: env.AWS_ENDPOINT_URL,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  for (const t of await listTargets([fleet.dir]))
    await s3.send(
      new PutObjectCommand({
        Bucket: 'rollouts',
        Key: `2026-12/${t.path}`,
        Body: readFileSync(t.file),
      }),
    );
  con = await connect();
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * The built CLI's `scan --json`, as a process run asynchronously: the S3 server answers from this
 * process's event loop, which a synchronous spawn would block.
 */
async function scan(args: string[]) {
  const r = await promisify(execFile)(process.execPath, [bundle, 'scan', ...args, '--json'], {
    cwd: root,
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
  });
  expect(r.stderr).not.toMatch(/^error/m);
  return JSON.parse(r.stdout) as { files: number; scan: { filesRead: number } };
}

/** Rows keyed by path, without the file's name and version (which differ between a disk and a bucket). */
async function rows(out: string) {
  const r = await con.runAndReadAll(
    `SELECT * EXCLUDE (file, version) FROM read_parquet(${sqlString(out)}) ORDER BY path, request NULLS FIRST`,
  );
  return r.getRowObjectsJson();
}

describe('scan s3://bucket/prefix (s3rver on 127.0.0.1)', { timeout: 600_000 }, () => {
  it('scans a bucket to the same rows as the folder', async () => {
    const folder = path.join(tmp, 'folder.parquet');
    const bucket = path.join(tmp, 'bucket.parquet');
    const a = await scan([fleet.dir, '--out', folder]);
    const b = await scan(['s3://rollouts/2026-12/', '--out', bucket]);
    expect(b.files).toBe(fleet.files);
    expect(b.scan.filesRead).toBe(fleet.files);
    expect(await rows(bucket)).toEqual(await rows(folder));
    // Resuming a bucket compares ETags: nothing is fetched again.
    expect((await scan(['s3://rollouts/2026-12/', '--out', bucket])).scan.filesRead).toBe(0);
    expect(a.files).toBe(b.files);
  });

  it('makes an object that cannot be fetched an error row, after retries with backoff', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const task = (file: string) => ({
        source: { file, path: 'x.json', size: 1, version: 'v' },
        policies: [],
        budgets: [],
        exact: false,
      });
      const missing = await scanFile(task('s3://rollouts/2026-12/no-such-object.json'));
      expect(missing.rows[0]?.error).toMatch(/^cannot read: S3 NoSuchKey/);
      // Nothing listens on port 9 of loopback: every try is refused, then the row says so.
      process.env.AWS_ENDPOINT_URL = 'http://127.0.0.1:9';
      process.env.AWS_MAX_ATTEMPTS = '2';
      const down = await scanFile(task('s3://rollouts/2026-12/archive.json'));
      const tries = Number(/after (\d+) tries/.exec(down.rows[0]?.error ?? '')?.[1]);
      expect(tries).toBeGreaterThanOrEqual(3);
    } finally {
      process.env = saved;
    }
  });
});
