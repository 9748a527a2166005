import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** One file of an archive: its path inside the ZIP and its bytes. */
export interface ArchiveFile {
  name: string;
  data: Uint8Array;
  /** Already compressed (a PDF's streams, an image): stored as it is. */
  stored?: boolean;
}

/** Resolves when the reader has caught up, or has gone (destroyed: nothing more is written). */
function drained(out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * A ZIP written as its files come (fflate's streaming `Zip`): each file is compressed and
 * handed on before the next is asked for, and the stream's back-pressure holds the next
 * back, so memory holds about one file, never the whole archive. An error in `files` (or
 * in the consumer) destroys the stream with it.
 */
export function zipArchive(files: AsyncIterable<ArchiveFile>, modifiedAt: Date): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const write = async () => {
    for await (const file of files) {
      if (out.destroyed) return;
      const entry = file.stored
        ? new ZipPassThrough(file.name)
        : new ZipDeflate(file.name, { level: 6 });
      entry.mtime = modifiedAt;
      zip.add(entry);
      entry.push(file.data, true);
      if (out.writableNeedDrain) await drained(out);
    }
    zip.end();
  };
  write().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
