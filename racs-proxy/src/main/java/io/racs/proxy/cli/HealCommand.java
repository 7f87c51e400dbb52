package io.racs.proxy.cli;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressOption;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

  @Mixin ProgressOption progress;

  @Override
  @SuppressWarnings("try") // the coordination is only to be closed
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ArrayConfig array = ArrayConfig.load(config);
    Optional<CoordinationConfig> coordination =
        CoordinationConfig.from(array.file()).filter(CoordinationConfig::versionCache);
    try (ErasureStore store = array.open();
        ZooKeeperCoordination joined = coordination.map(c -> join(store, c, out)).orElse(null)) {
      out.printf(
          "heal: array %s (%s) over %d repositories%n",
          store.arrayId(), array.store().geometry(), array.slots().size());
      ProgressBar bar = ProgressBar.create(progress.mode(), out);
      HealReport report =
          Healer.heal(
              store,
              HealOptions.builder()
                  .bucket(bucket)
                  .dryRun(dryRun)
                  .deep(deep)
                  .megabytesPerSecond(rate)
                  .stateFile(state)
                  .progress(line -> show(bar, line))
                  .build());
      bar.finish();
      report.lines().forEach(out::println);
      return report.complete() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
  }

  /**
   * Heal's counting line ({@code heal: N objects scanned, ...}, once a second) as a step of the bar
   * (heal does not know how many objects there are: no total, no ETA); every other line, what
   * happened, as a message.
   */
  static void show(ProgressBar bar, String line) {
    Matcher counting = COUNTING.matcher(line);
    if (counting.matches()) {
      bar.update(
          ProgressBar.Step.of("heal", Long.parseLong(counting.group(1)), 0, "objects")
              .detail(counting.group(2)));
    } else {
      bar.message(line);
    }
  }

  private static final Pattern COUNTING = Pattern.compile("heal: (\\d+) objects scanned, (.*)");

  /**
   * Joins the proxies' ZooKeeper when they keep a version cache: heal's copies of an entry can
   * change a key's current version, and the proxies' caches hear of that only through the key
   * stamps its writes register (docs/coordination.md). Waits for the session, so that no copy goes
   * unregistered.
   */
  private static ZooKeeperCoordination join(
      ErasureStore store, CoordinationConfig config, PrintWriter out) {
    String id = "heal-" + ProcessHandle.current().pid() + "@" + RacsServer.hostName();
    ZooKeeperCoordination joined = RacsServer.join(store, config, id, id);
    try {
      Duration wait =
          config.sessionTimeout().compareTo(CONNECT_WAIT) < 0
              ? config.sessionTimeout()
              : CONNECT_WAIT;
      if (!joined.awaitConnected(wait)) {
        throw new IllegalStateException(
            "coordination: not connected to ZooKeeper at "
                + config.zookeeper()
                + " within "
                + wait.toMillis()
                + " ms (the proxies keep a version cache: heal must register its writes)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      joined.close();
      throw new IllegalStateException("interrupted waiting for ZooKeeper", e);
    } catch (RuntimeException e) {
      joined.close(); // not connected: returns at once
      throw e;
    }
    out.printf("heal: joined ZooKeeper at %s as %s (version cache)%n", config.zookeeper(), id);
    return joined;
  }

  /** How long heal waits for its ZooKeeper session at most. */
  private static final Duration CONNECT_WAIT = Duration.ofSeconds(15);
}
