package io.racs.proxy.runtime;

import io.racs.repos.config.ConfigSection;
import io.racs.repos.config.RepositorySetConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The optional {@code coordination:} section of a RACS configuration file: the ZooKeeper ensemble
 * through which several proxies over one array elect the one that runs the background scrub and
 * serialise bucket creates and deletes. Without it each proxy works alone (still correct; see
 * docs/coordination.md).
 *
 * <pre>{@code
 * coordination:
 *   zookeeper: zk1:2181,zk2:2181,zk3:2181
 *   namespace: racs           # the root of this array's nodes; proxies of one array share it
 *   id: proxy-a               # unique per proxy; default: host name and S3 port
 *   sessionTimeout: 15s
 *   versionCache: false       # true: a GET or HEAD of a key unchanged since lists nothing
 * }</pre>
 *
 * @param zookeeper the ensemble's connect string
 * @param namespace the root of this array's nodes
 * @param id this proxy's id, or null for the host name and S3 port
 * @param sessionTimeout the ZooKeeper session timeout
 * @param versionCache whether writes of keys register in ZooKeeper and reads of keys unchanged
 *     since trust the version they listed before ({@code io.racs.proxy.store.array.KeyStamps});
 *     every proxy of an array must say the same
 */
public record CoordinationConfig(
    String zookeeper, String namespace, String id, Duration sessionTimeout, boolean versionCache) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private record Section(
      String zookeeper, String namespace, String id, String sessionTimeout, Boolean versionCache) {}

  /** The section, if the file has one. */
  public static Optional<CoordinationConfig> from(RepositorySetConfig file) {
    if (file.section("coordination").isEmpty()) {
      return Optional.empty();
    }
    ConfigSection section = file.configSection("coordination");
    Section s = section.bind(Section.class);
    if (s == null) {
      return Optional.empty();
    }
    String zookeeper = section.required("zookeeper", s.zookeeper());
    String namespace = s.namespace() == null ? "racs" : s.namespace();
    if (!NAME.matcher(namespace).matches()) {
      throw section.error("namespace", namespace + " (expected: letters, digits, '.', '_', '-')");
    }
    if (s.id() != null && !NAME.matcher(s.id()).matches()) {
      throw section.error("id", s.id() + " (expected: letters, digits, '.', '_', '-', ':')");
    }
    Duration session =
        section
            .duration("sessionTimeout", s.sessionTimeout(), "15s")
            .orElse(Duration.ofSeconds(15));
    if (session.compareTo(Duration.ofSeconds(1)) < 0
        || session.compareTo(Duration.ofMinutes(10)) > 0) {
      throw section.error("sessionTimeout", session + " (expected: from 1s to 10m)");
    }
    return Optional.of(
        new CoordinationConfig(
            zookeeper, namespace, s.id(), session, Boolean.TRUE.equals(s.versionCache())));
  }

  /** The same with another connect string (the demo's embedded ZooKeeper). */
  public static CoordinationConfig of(String zookeeper, String id) {
    return new CoordinationConfig(zookeeper, "racs", id, Duration.ofSeconds(15), false);
  }
}
