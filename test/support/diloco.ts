// DiLoCo ranks on a cluster executor: a bucket on s3rver (loopback) every rank reaches through the
// AWS_* variables, and the checks of a 4-round, 3-rank run whose rank 2 was killed in round 2.
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { expect } from "vitest";
import { summarizeRun, type Store } from "../../lib/store/index.js";

export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** s3rver on 127.0.0.1 (files under `dir`) with `bucket` created; `env` is what a rank needs. */
export async function s3rverBucket(dir: string, bucket: string): Promise<{ server: S3rver; endpoint: string; env: Record<string, string> }> {
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const c = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  await c.send(new CreateBucketCommand({ Bucket: bucket }));
  return { server, endpoint, env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey, AWS_REGION: "us-east-1" } };
}

/** The run completed its 4 rounds without rank 2 from round 2 or 3 on, rank 0 never dropped. */
export async function expectRankTwoDropped(store: Store, prefix: string): Promise<Awaited<ReturnType<typeof summarizeRun>>> {
  const s = await summarizeRun(store, prefix, 3);
  expect(s.rounds).toBe(4);
  expect(s.droppedRanks.filter((d) => d.round === 1)).toEqual([]);
  // rank 2 is gone from round 2 or 3 on (it may have published round 2 before the kill landed)
  expect(s.droppedRanks).toEqual(expect.arrayContaining([{ round: 3, rank: 2 }, { round: 4, rank: 2 }]));
  expect(s.droppedRanks.filter((d) => d.rank === 0)).toEqual([]);
  expect(s.loss).toBeLessThan(s.lossHistory[0]!);
  return s;
}
