/**
 * What other load generators measured (fio's JSON output, warp's text output and its --benchdata
 * operations), read into numbers racs-bench's own results can be set beside: {@code racs bench
 * versus fio} and {@code racs bench versus warp}, the analyses of scripts/bench-vs-fio.sh and
 * scripts/bench-vs-warp.sh.
 */
package io.racs.bench.external;
