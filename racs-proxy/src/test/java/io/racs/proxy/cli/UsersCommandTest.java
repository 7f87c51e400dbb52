package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs users} on real {@code fs} repositories, one command at a time as an operator
 * runs them: {@code add} prints the generated key and secret once, {@code list} shows users and
 * their policies but never a secret, policies attach and detach, {@code remove} removes; and each
 * bad input (a duplicate key, an unknown user, a malformed policy, a policy over 20 KB) exits 2
 * with one line and leaves every repository's files as they were; with a configuration that names
 * coordination, each change (not a listing) is announced in ZooKeeper, and with ZooKeeper down the
 * change is still made and stderr says it was not announced.
 */
class UsersCommandTest {
  private static final String POLICY =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
          + "\"Action\":[\"s3:GetObject\"],\"Resource\":\"arn:aws:s3:::assets/*\"}]}";

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path config;

  private int racs(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private int users(String... args) {
    String[] all = Stream.concat(Stream.of("users"), Stream.of(args)).toArray(String[]::new);
    String[] withConfig =
        Stream.concat(Stream.of(all), Stream.of("--config", config.toString()))
            .toArray(String[]::new);
    return racs(withConfig);
  }

  @BeforeEach
  void array() throws IOException {
    config = FsArrayFiles.write(dir, "racs.yaml", "4x2", 6, "");
    Files.writeString(
        config,
        "server:\n  credentials:\n    - {accessKey: admin, secretKey: admin-secret}\n",
        java.nio.file.StandardOpenOption.APPEND);
  }

  private Path file(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  /** Every file of the repositories with its size: what a refused command must not change. */
  private List<String> repositoryFiles() {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> dir.relativize(p).toString().startsWith("r"))
          .map(
              p -> {
                try {
                  return dir.relativize(p) + " " + Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void addListAttachDetachRemove_changeTheStoredUsers() throws IOException {
    assertThat(users("add", "alice")).as(err.toString()).isZero();
    Matcher key = Pattern.compile("access key: (\\S+)").matcher(out.toString());
    Matcher secret = Pattern.compile("secret key: (\\S+)").matcher(out.toString());
    assertThat(key.find()).isTrue();
    assertThat(secret.find()).isTrue();
    assertThat(key.group(1)).matches("RACS[A-Z2-7]{16}");
    assertThat(secret.group(1)).hasSize(40);

    assertThat(users("list")).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("1 user")
        .contains("alice  " + key.group(1))
        .contains("policies: (none)")
        .doesNotContain(secret.group(1));

    Path policy = file("p.json", POLICY);
    assertThat(users("attach-policy", "alice", "read-assets", "--file", policy.toString()))
        .as(err.toString())
        .isZero();
    assertThat(users("list")).isZero();
    assertThat(out.toString()).contains("policies: read-assets");

    assertThat(users("detach-policy", "alice", "read-assets")).as(err.toString()).isZero();
    assertThat(users("list")).isZero();
    assertThat(out.toString()).contains("policies: (none)");

    assertThat(users("add", "bob", "--access-key", "BOBKEY", "--secret-key", "bob-secret-1"))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("access key: BOBKEY").doesNotContain("bob-secret-1");

    assertThat(users("remove", "alice")).as(err.toString()).isZero();
    assertThat(users("list")).isZero();
    assertThat(out.toString()).contains("1 user").contains("bob  BOBKEY").doesNotContain("alice");
  }

  @Test
  void badInput_exitsTwoWithOneLineAndChangesNothing() throws IOException {
    assertThat(users("add", "alice", "--access-key", "ALICEKEY")).as(err.toString()).isZero();
    List<String> before = repositoryFiles();
    assertThat(before).isNotEmpty();
    Path malformed =
        file(
            "bad.json",
            "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3:Fly\",\"Resource\":\"*\"}]}");
    Path big = file("big.json", "{\"Id\":\"" + "x".repeat(21 * 1024) + "\",\"Statement\":[]}");
    record Bad(List<String> args, String line) {}
    List<Bad> bad =
        List.of(
            new Bad(
                List.of("add", "bob", "--access-key", "ALICEKEY"),
                "already in use (by user alice)"),
            new Bad(
                List.of("add", "bob", "--access-key", "admin"),
                "already in use (by the configuration's credentials)"),
            new Bad(List.of("add", "alice"), "user alice already exists"),
            new Bad(List.of("remove", "nobody"), "no such user: nobody"),
            new Bad(
                List.of("attach-policy", "nobody", "p", "--file", dir.resolve("p.json").toString()),
                "--file: cannot read"),
            new Bad(
                List.of("attach-policy", "alice", "p", "--file", malformed.toString()),
                "MalformedPolicy: "),
            new Bad(
                List.of("attach-policy", "alice", "p", "--file", big.toString()),
                "MalformedPolicy: Policies must be no more than 20480 bytes"),
            new Bad(List.of("detach-policy", "alice", "p"), "user alice has no policy p"));
    for (Bad b : bad) {
      assertThat(users(b.args().toArray(String[]::new))).as(b.args() + ": " + out).isEqualTo(2);
      assertThat(err.toString().strip())
          .as(b.args().toString())
          .contains(b.line())
          .doesNotContain("\n");
      assertThat(repositoryFiles()).as(b.args().toString()).isEqualTo(before);
    }
    Path good = file("p.json", POLICY);
    assertThat(users("attach-policy", "nobody", "p", "--file", good.toString())).isEqualTo(2);
    assertThat(err.toString().strip()).contains("no such user: nobody").doesNotContain("\n");
    assertThat(repositoryFiles()).isEqualTo(before);
  }

  @Test
  void change_withCoordinationConfigured_isAnnouncedInZooKeeper() throws Exception {
    try (TestingServer zookeeper = new TestingServer(true);
        CuratorFramework client =
            CuratorFrameworkFactory.newClient(
                zookeeper.getConnectString(), new RetryOneTime(100))) {
      Files.writeString(
          config,
          "coordination:\n  zookeeper: " + zookeeper.getConnectString() + "\n",
          java.nio.file.StandardOpenOption.APPEND);
      client.start();
      assertThat(users("add", "alice", "--access-key", "ALICEKEY")).as(err.toString()).isZero();
      Stat added = client.checkExists().forPath("/racs/users");
      assertThat(added).as("the announcement node").isNotNull();
      assertThat(err.toString()).isEmpty();

      assertThat(users("remove", "alice")).as(err.toString()).isZero();
      assertThat(client.checkExists().forPath("/racs/users").getMzxid())
          .as("announced again")
          .isGreaterThan(added.getMzxid());
      // Listing changes nothing, so it announces nothing.
      long removed = client.checkExists().forPath("/racs/users").getMzxid();
      assertThat(users("list")).isZero();
      assertThat(client.checkExists().forPath("/racs/users").getMzxid()).isEqualTo(removed);

      zookeeper.stop();
      assertThat(users("add", "bob", "--access-key", "BOBKEY")).as(err.toString()).isZero();
      assertThat(err.toString()).contains("could not be announced through ZooKeeper");
      assertThat(users("list")).isZero();
      assertThat(out.toString()).contains("bob  BOBKEY");
    }
  }
}
