package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves the {@code coordination:} section: absent means no coordination, the defaults fill what is
 * left out, {@code ${env:NAME}} resolves, and a malformed section fails naming the field.
 */
class CoordinationConfigTest {
  private static RepositorySetConfig file(String text) {
    return RepositoryConfigLoader.withEnvironment(Map.of("ZK", "zk1:2181,zk2:2181")::get)
        .parse("repositories: []\n" + text, "racs.yaml");
  }

  @Test
  void from_whenSectionAbsent_isEmpty() {
    assertThat(CoordinationConfig.from(file(""))).isEmpty();
  }

  @Test
  void from_whenOnlyZooKeeperGiven_takesTheDefaults() {
    CoordinationConfig c =
        CoordinationConfig.from(file("coordination: {zookeeper: '${env:ZK}'}\n")).orElseThrow();
    assertThat(c)
        .isEqualTo(
            new CoordinationConfig(
                "zk1:2181,zk2:2181", "racs", null, Duration.ofSeconds(15), false));
  }

  @Test
  void from_whenEveryFieldGiven_readsThem() {
    CoordinationConfig c =
        CoordinationConfig.from(
                file(
                    "coordination:\n  zookeeper: zk:2181\n  namespace: array-1\n"
                        + "  id: proxy-a\n  sessionTimeout: 30s\n  versionCache: true\n"))
            .orElseThrow();
    assertThat(c)
        .isEqualTo(
            new CoordinationConfig("zk:2181", "array-1", "proxy-a", Duration.ofSeconds(30), true));
  }

  @Test
  void from_whenMalformed_failsNamingTheField() {
    assertThatThrownBy(() -> CoordinationConfig.from(file("coordination: {namespace: racs}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("zookeeper");
    assertThatThrownBy(
            () ->
                CoordinationConfig.from(
                    file("coordination: {zookeeper: 'zk:2181', namespace: 'a/b'}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("namespace");
    assertThatThrownBy(
            () ->
                CoordinationConfig.from(
                    file("coordination: {zookeeper: 'zk:2181', sessionTimeout: 100ms}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sessionTimeout");
    assertThatThrownBy(
            () ->
                CoordinationConfig.from(
                    file("coordination: {zookeeper: 'zk:2181', versionCache: sometimes}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("versionCache");
    assertThatThrownBy(
            () -> CoordinationConfig.from(file("coordination: {zookeeper: 'zk:2181', port: 1}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("port");
  }
}
