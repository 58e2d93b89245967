// A folder as one uncompressed tar file (POSIX ustar): the static results a club downloads, unpacks (`tar xf`, or any
// archive tool) and uploads to its website. A few lines here rather than a dependency: only regular files are written.

/** Pack `files` (path inside the folder → content) into a tar archive under the folder `dir`. */
export function tarFolder(dir: string, files: ReadonlyMap<string, string | Buffer>, mtime = new Date()): Buffer {
  const blocks: Buffer[] = [];
  const seconds = Math.floor(mtime.getTime() / 1000);
  for (const [name, content] of files) {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const path = `${dir}/${name}`;
    if (Buffer.byteLength(path) > 100) throw new Error(`tar: the path "${path}" is longer than 100 bytes`);
    const h = Buffer.alloc(512, 0);
    h.write(path, 0, 100, 'utf8');
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write(`${seconds.toString(8).padStart(11, '0')}\0`, 136);
    h.write('        ', 148); // the checksum counts its own field as spaces
    h.write('0', 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512, 0));
  }
  blocks.push(Buffer.alloc(1024, 0));
  return Buffer.concat(blocks);
}
