/**
 * Block-level workloads on files: so far the dd-style sequential run ({@link
 * io.racs.bench.block.DdRun}), with O_DIRECT on buffers aligned to the filesystem's block size, and
 * a clear refusal where the filesystem does not allow O_DIRECT (unless buffered I/O is explicitly
 * accepted, and then labelled so).
 */
package io.racs.bench.block;
