package io.racs.bench.cli;

import io.racs.bench.cpu.ProcessCpu;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --sample-pid PID[,PID...]}: the processes (a proxy, a MinIO server, with everything they
 * started) whose CPU {@code racs bench object} records over each measured iteration, so that a
 * report gives the server's CPU per request beside the throughput it bought, as {@code pidstat}
 * would beside warp.
 */
final class SamplePidOption {
  @Option(
      names = "--sample-pid",
      split = ",",
      paramLabel = "PID",
      description =
          "Record the user and system CPU of these processes and their descendants over each"
              + " measured iteration (Linux /proc), by thread group, into results.json.")
  List<Long> pids = new ArrayList<>();

  /** The sampler of the given processes, checked to be running now, or null when none given. */
  ProcessCpu sampler() {
    return pids.isEmpty() ? null : ProcessCpu.of(pids).requireRunning();
  }
}
