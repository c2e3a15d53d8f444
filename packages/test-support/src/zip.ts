import yazl from 'yazl';

/** A yazl archive, ended and read whole into memory (tests' small ZIPs: image uploads, crafted workbooks). */
export function zipBuffer(zip: yazl.ZipFile): Promise<Buffer> {
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
