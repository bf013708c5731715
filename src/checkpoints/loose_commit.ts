import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';

/** The tree of no files: git knows it without storing it, but a commit of it is easier to read when stored. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A commit for `writeLooseCommit`: a tree the repository holds (or the empty tree), its ref and message. */
export interface LooseCommit {
  tree: string;
  ref: string;
  message: string;
  at: number;
  identity: string;
}

/**
 * Writes a commit of a tree the repository already holds, and points its ref at it, as git
 * itself lays them out (a zlib-compressed loose object, a ref file moved into place through its
 * `.lock`): a checkpoint of an unchanged workspace then needs no git process. The caller holds
 * the repository's lock; the ref is new or only lathe moves it. Returns the commit's id.
 */
export function writeLooseCommit(gitDir: string, commit: LooseCommit): string {
  if (commit.tree === EMPTY_TREE) writeLooseObject(gitDir, 'tree', Buffer.alloc(0));
  const seconds = Math.floor(commit.at / 1000);
  const body = Buffer.from(
    `tree ${commit.tree}\nauthor ${commit.identity} ${seconds} +0000\ncommitter ${commit.identity} ${seconds} +0000\n\n${commit.message}`,
  );
  const id = writeLooseObject(gitDir, 'commit', body);
  const refFile = join(gitDir, commit.ref);
  mkdirSync(dirname(refFile), { recursive: true });
  // `wx`: a lock left by a process that died makes this fail, and the caller falls back to git.
  writeFileSync(`${refFile}.lock`, `${id}\n`, { flag: 'wx' });
  renameSync(`${refFile}.lock`, refFile);
  return id;
}

/** Stores one object unless it is there already; written aside and renamed, so it is never seen half-written. */
export function writeLooseObject(gitDir: string, type: 'blob' | 'commit' | 'tree', body: Buffer): string {
  const content = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const id = createHash('sha1').update(content).digest('hex');
  const file = join(gitDir, 'objects', id.slice(0, 2), id.slice(2));
  if (existsSync(file)) return id;
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(temp, deflateSync(content), { mode: 0o444 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return id;
}
