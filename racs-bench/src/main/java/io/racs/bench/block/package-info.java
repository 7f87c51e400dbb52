/**
 * Block-level workloads on files: the dd-style sequential run ({@link io.racs.bench.block.DdRun}),
 * the records × threads × patterns sweep ({@link io.racs.bench.block.Sweep}), the IOzone-style
 * matrix ({@link io.racs.bench.block.IozoneMatrix}) and vdbench-style parameter files ({@link
 * io.racs.bench.block.VdbenchParams}, {@link io.racs.bench.block.VdbenchRun}), with O_DIRECT on
 * buffers aligned to the filesystem's block size, a clear refusal where the filesystem does not
 * allow O_DIRECT (unless buffered I/O is explicitly accepted, and then labelled so), write stamps
 * that reads verify ({@link io.racs.bench.block.Stamp}), and one versioned {@code results.json} per
 * command ({@link io.racs.bench.block.SweepReport}, {@link io.racs.bench.block.DdReport}, {@link
 * io.racs.bench.block.RunReport}, {@link io.racs.bench.block.IozoneMatrixReport}) that {@code bench
 * compare} reads.
 */
package io.racs.bench.block;
