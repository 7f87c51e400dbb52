package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.server.Transport;
import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves the {@code server:} section: an absent section gives the defaults, every field is read,
 * {@code adminListen: off} turns the admin listener off as {@code --admin-listen off} does (YAML
 * 1.1 would read it as a boolean), credentials resolve {@code ${env:NAME}} through the loader's
 * environment, and every malformed section fails with one line naming the file, the section and the
 * field.
 */
class ServerConfigTest {
  private static final Map<String, String> ENV = Map.of("SECRET", "s3cr3t", "ACCESS", "admin");

  private static RepositorySetConfig file(String server) {
    return RepositoryConfigLoader.withEnvironment(ENV::get)
        .parse("repositories: []\n" + server, "racs.yaml");
  }

  @Test
  void from_whenSectionAbsent_givesTheDefaults() {
    assertThat(ServerConfig.from(file(""))).isEqualTo(ServerConfig.defaults());
  }

  @Test
  void defaults_runTheLifecycleScanButNotTheScrub() {
    assertThat(ServerConfig.defaults().lifecycleOn()).isTrue();
    assertThat(ServerConfig.defaults().lifecycleInterval())
        .isEqualTo(ServerConfig.DEFAULT_LIFECYCLE_INTERVAL);
    assertThat(ServerConfig.defaults().scrubInterval()).isZero();
  }

  @Test
  void from_whenLifecycleIntervalZero_turnsLifecycleOff() {
    ServerConfig server = ServerConfig.from(file("server:\n  lifecycleInterval: 0s\n"));

    assertThat(server.lifecycleOn()).isFalse();
  }

  @Test
  void from_whenAdminListenOff_hasNoAdminListener() {
    assertThat(ServerConfig.from(file("server:\n  adminListen: off\n")).adminListen()).isNull();
  }

  @Test
  void from_whenEveryFieldGiven_readsThemWithEnvironmentFromTheLoader() {
    ServerConfig server =
        ServerConfig.from(
            file(
                """
                server:
                  listen: 0.0.0.0:9100
                  adminListen: 127.0.0.1:9101
                  region: no
                  baseDomain: s3.example.test
                  credentials:
                    - {accessKey: '${env:ACCESS}', secretKey: '${env:SECRET}'}
                    - {accessKey: yes, secretKey: 0123}
                  tls: {cert: c.pem, key: k.pem}
                  maxHeaderSize: 32KiB
                  idleTimeout: 5s
                  drainTimeout: 1m
                  scrubInterval: 24h
                  abandonedUploadAge: 48h
                  lifecycleInterval: 10m
                  startupWait: 10m
                  usersRefresh: 250ms
                  consoleReadOnly: true
                  transport: io_uring
                """));
    assertThat(server)
        .isEqualTo(
            new ServerConfig(
                "0.0.0.0:9100",
                "127.0.0.1:9101",
                "no",
                "s3.example.test",
                Map.of("admin", "s3cr3t", "yes", "0123"),
                Path.of("c.pem"),
                Path.of("k.pem"),
                32 << 10,
                Duration.ofSeconds(5),
                Duration.ofMinutes(1),
                Duration.ofHours(24),
                Duration.ofHours(48),
                Duration.ofMinutes(10),
                Duration.ofMinutes(10),
                Duration.ofMillis(250),
                true,
                Transport.IO_URING));
    assertThat(server.toString()).doesNotContain("s3cr3t");
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "server: {listne: x}\n",
            "racs.yaml: server: field 'listne': unknown field (expected one of: abandonedUploadAge,"
                + " adminListen,"
                + " baseDomain, consoleReadOnly, credentials, drainTimeout, idleTimeout,"
                + " lifecycleInterval, listen, maxHeaderSize, region, scrubInterval, startupWait,"
                + " tls, transport, usersRefresh)"),
        Arguments.of(
            "server: {tls: {cert: c.pem, key: k.pem, chain: x}}\n",
            "racs.yaml: server: field 'tls.chain': unknown field (expected one of: cert, key)"),
        Arguments.of(
            "server: {tls: {cert: c.pem}}\n",
            "racs.yaml: server: field 'tls': expected {cert: FILE, key: FILE}"),
        Arguments.of(
            "server: {credentials: [{accessKey: a, secret: b}]}\n",
            "racs.yaml: server: field 'credentials[0].secret': unknown field (expected one of:"
                + " accessKey, secretKey)"),
        Arguments.of(
            "server: {credentials: [{accessKey: a}]}\n",
            "racs.yaml: server: field 'credentials': each entry needs accessKey and secretKey"),
        Arguments.of(
            "server: {credentials: [{accessKey: a, secretKey: b}, {accessKey: a, secretKey: c}]}\n",
            "racs.yaml: server: field 'credentials': access key 'a' listed twice"),
        Arguments.of(
            "server: {credentials: [{accessKey: a, secretKey: '${env:NOPE}'}]}\n",
            "racs.yaml: server: field 'credentials[0].secretKey': environment variable NOPE is not"
                + " set"),
        Arguments.of(
            "server: {startupWait: forever}\n",
            "racs.yaml: server: field 'startupWait': expected a duration such as 10m (or"
                + " unlimited), got 'forever'"),
        Arguments.of(
            "server: {maxHeaderSize: 2MiB}\n",
            "racs.yaml: server: field 'maxHeaderSize': expected a size from 1KiB to 1MiB, got"
                + " '2MiB'"),
        Arguments.of(
            "server: {transport: kqueue}\n",
            "racs.yaml: server: field 'transport': kqueue (expected: auto, epoll, io_uring or"
                + " nio)"),
        Arguments.of(
            "server: {idleTimeout: soon}\n",
            "racs.yaml: server: field 'idleTimeout': expected a duration such as 30s, got 'soon'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void from_whenMalformed_failsWithOneLineNamingFileSectionAndField(String yaml, String message) {
    RepositorySetConfig file = file(yaml);
    assertThatThrownBy(() -> ServerConfig.from(file))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }
}
