package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Proves {@code racs bench object} fails with one line on what it cannot run: bad flags and values
 * (with the usage code), an invalid price table (before anything runs), too many keys for per-
 * client prefixes, array or coordination options that do not fit together, and a coordination
 * section whose ZooKeeper does not answer.
 */
class ObjectCommandInputTest extends ObjectCommandSupport {
  @Test
  void object_whenEmbeddedZooKeeperWithACoordinationSectionOrWithoutArray_failsWithOneLine()
      throws Exception {
    config = arrayConfig("coordination:\n  zookeeper: 127.0.0.1:1\n");
    Path o = dir.resolve("out");
    assertThat(run("--array", "racs", "--embedded-zookeeper", "--out", o.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --embedded-zookeeper: "
                + config
                + " has a coordination section (expected: one or the other)"
                + System.lineSeparator());
    assertThat(o).doesNotExist();
    err.getBuffer().setLength(0);
    assertThat(run("--repository", "direct", "--embedded-zookeeper")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --embedded-zookeeper: needs --array NAME" + System.lineSeparator());
  }

  @Test
  void object_whenTheCoordinationSectionNamesNoZooKeeper_failsWithOneLineAfterTheWait()
      throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    config =
        arrayConfig("coordination: {zookeeper: '127.0.0.1:" + port + "', sessionTimeout: 1s}\n");
    assertThat(run("--array", "racs", "--out", dir.resolve("out").toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString())
        .hasLineCount(1)
        .contains(
            "coordination: not connected to ZooKeeper at 127.0.0.1:"
                + port
                + " within 1000 ms (expected: a reachable ensemble, or no coordination"
                + " section)");
  }

  @Test
  void object_whenArrayColdWithoutArray_failsWithOneLine() throws Exception {
    config = arrayConfig("");
    assertThat(run("--repository", "direct", "--array-cold")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo("racs bench object: --array-cold: needs --array NAME" + System.lineSeparator());
  }

  @Test
  void object_whenThePriceTableIsInvalid_failsWithOneLineBeforeAnythingRuns() throws Exception {
    config = arrayConfig("prices:\n  default: {putPer1000: -0.005}\n");
    Path o = dir.resolve("out");
    assertThat(run("--array", "racs", "--op", "put", "--out", o.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: "
                + config
                + ": prices: field 'default.putPer1000': -0.005 (expected: 0 or more)"
                + System.lineSeparator());
    assertThat(o).doesNotExist();
    config = arrayConfig("prices:\n  repositories: {m9: {getPer1000: 0}}\n");
    assertThat(run("--array", "racs", "--out", o.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("field 'repositories.m9': unknown repository");
    assertThat(o).doesNotExist();
  }

  @Test
  void object_whenPrefixPerClientOverMoreKeysThanAnIntCounts_failsWithOneLine() {
    assertThat(
            run(
                "--repository",
                "mem",
                "--prefix-per-client",
                "--objects",
                "1000000",
                "--clients",
                "1,3000"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --prefix-per-client: 1000000 objects x 3000 clients (expected: at"
                + " most 2147483647 keys in all)"
                + System.lineSeparator());
  }

  @Test
  void object_whenInputIsBad_failsWithOneLineAndUsageCode() {
    assertThat(run("--repository", "mem", "--sizes", "4KB")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .startsWith("racs bench object: sizes: 4KB (expected: sizes such as 4KiB,1MiB")
        .hasLineCount(1);
    err.getBuffer().setLength(0);
    assertThat(run("--repository", "nope")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --repository: nope (expected one of: mem, disk, slow, glacial,"
                + " broken)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            run(
                "--endpoint",
                "http://127.0.0.1:1,http://127.0.0.1:1",
                "--access-key",
                "a",
                "--secret-key",
                "s"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --endpoint: http://127.0.0.1:1,http://127.0.0.1:1 (expected: each"
                + " URL once)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            run(
                "--endpoint",
                "http://127.0.0.1:1,http://127.0.0.1:2",
                "--access-key",
                "a",
                "--secret-key",
                "s",
                "--host-select",
                "random"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --host-select: random (expected: roundrobin or sticky)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(run("--array", "racs")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .endsWith(
            "racs.yaml: array: missing section 'array' (expected: geometry, slots...)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            BenchMain.run(
                new PrintWriter(out),
                new PrintWriter(err, true),
                "compare",
                dir.resolve("missing.json").toString(),
                dir.resolve("missing.json").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("missing.json: no such file");
  }
}
