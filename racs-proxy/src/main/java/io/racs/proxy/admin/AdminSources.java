package io.racs.proxy.admin;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.s3.server.ServerMetrics;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.users.UserAccounts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the admin endpoints read from the running proxy. The runtime builds one; the admin package
 * never reaches back into the runtime.
 *
 * @param store the opened store (health, geometry, counters, repositories); null until the array
 *     opens (start-up with too few repositories answering)
 * @param opening what is known of the array while it is not open yet, and its configured layout
 * @param metrics the S3 server's request metrics
 * @param coordination the ZooKeeper coordination, or null when there is none (or not yet)
 * @param lastScrub the last background scrub's report (null before one ran)
 * @param lifecycleOn whether the lifecycle scan carries out lifecycle rules
 * @param credentials access key to secret key: who may sign in to the console
 * @param accessLog the access log, whose recent lines the console shows
 * @param actions what the console may start or pause
 * @param readOnly true when the console shows but may not act ({@code server.consoleReadOnly})
 * @param readyMembers appends members of its own to {@code /health/ready} (the reshape's), after
 *     the array opened
 * @param moreMetrics metrics of its own for {@code /metrics} (the reshape's), shown after the array
 *     opened
 * @param users the changes the admin API makes to the users stored in the array ({@link AdminApi});
 *     null until the array opens
 * @param usersChanged called after each change the admin API made, so that this proxy serves it at
 *     once (the user directory re-reads); may throw when the re-read fails
 */
public record AdminSources(
    Supplier<ErasureStore> store,
    Supplier<Opening> opening,
    ServerMetrics metrics,
    Supplier<ZooKeeperCoordination> coordination,
    Supplier<HealReport> lastScrub,
    boolean lifecycleOn,
    Map<String, String> credentials,
    AccessLog accessLog,
    AdminActions actions,
    boolean readOnly,
    Consumer<StringBuilder> readyMembers,
    MultiCollector moreMetrics,
    Supplier<UserAccounts> users,
    Runnable usersChanged) {
  /**
   * The array as the admin endpoints report it before it opened.
   *
   * @param config the configured layout (geometry, write quorum)
   * @param attempts how often opening it was tried
   * @param waited for how long
   * @param reason why it is not open yet
   * @param repositories each repository's state as the last attempt found it
   */
  public record Opening(
      StoreConfig config,
      int attempts,
      Duration waited,
      String reason,
      List<RepositoryHealth> repositories) {}
}
