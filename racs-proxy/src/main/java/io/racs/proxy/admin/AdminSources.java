package io.racs.proxy.admin;

import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.s3.server.ServerMetrics;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.HealReport;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the admin endpoints read from the running proxy. The runtime builds one; the admin package
 * never reaches back into the runtime.
 *
 * @param store the opened store (health, geometry, counters, repositories)
 * @param metrics the S3 server's request metrics
 * @param coordination the ZooKeeper coordination, or null when there is none
 * @param lastScrub the last background scrub's report (null before one ran)
 * @param lifecycleOn whether the lifecycle scan carries out lifecycle rules
 * @param credentials access key to secret key: who may sign in to the console
 * @param accessLog the access log, whose recent lines the console shows
 * @param actions what the console may start or pause
 * @param readOnly true when the console shows but may not act ({@code server.consoleReadOnly})
 */
public record AdminSources(
    ErasureStore store,
    ServerMetrics metrics,
    ZooKeeperCoordination coordination,
    Supplier<HealReport> lastScrub,
    boolean lifecycleOn,
    Map<String, String> credentials,
    AccessLog accessLog,
    AdminActions actions,
    boolean readOnly) {}
