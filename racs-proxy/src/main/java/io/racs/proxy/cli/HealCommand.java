package io.racs.proxy.cli;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.Healer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs heal}: checks every object of the array and rebuilds missing or rotted shards and
 * records from k good ones, fills a replaced (empty) repository, and collects leftovers. Run it
 * while the proxy serves or while it is down; it prints progress and a summary. A repository that
 * fails is left out for the rest of the run and the rest is healed; the summary lists what could
 * not be done, and the command exits 1 when anything was left undone (an object unrecoverable, a
 * repository unreachable or failing).
 */
@Command(
    name = "heal",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Rebuild missing or corrupt shards and records, and collect leftovers.")
public final class HealCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "RACS configuration (repositories and array)")
  Path config;

  @Option(
      names = "--bucket",
      paramLabel = "B",
      description = "heal only this bucket (skips leftover collection)")
  String bucket;

  @Option(names = "--dry-run", description = "report what would be repaired; change nothing")
  boolean dryRun;

  @Option(
      names = "--deep",
      description = "read every shard and check each piece's CRC32C (finds bitrot)")
  boolean deep;

  @Option(
      names = "--rate",
      paramLabel = "MB/s",
      description = "limit heal I/O to this many MB/s (default: no limit)")
  double rate;

  @Option(
      names = "--state",
      paramLabel = "FILE",
      description = "progress file: an interrupted heal resumes after the last object it finished")
  Path state;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.open()) {
      out.printf(
          "heal: array %s (%s) over %d repositories%n",
          store.arrayId(), array.store().geometry(), array.slots().size());
      Healer.Report report =
          Healer.heal(
              store,
              Healer.Options.builder()
                  .bucket(bucket)
                  .dryRun(dryRun)
                  .deep(deep)
                  .megabytesPerSecond(rate)
                  .stateFile(state)
                  .progress(line -> out.println(line))
                  .build());
      report.lines().forEach(out::println);
      return report.complete() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
  }
}
