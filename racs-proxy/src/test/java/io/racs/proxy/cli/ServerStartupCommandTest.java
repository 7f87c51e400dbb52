package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves how {@code racs server} ends a start-up it cannot complete: a repository of another array
 * exits 1 at once, even while other repositories are missing (which alone would make it wait);
 * {@code startupWait: 0s} exits 1 at once as before the wait existed; and a bounded {@code
 * startupWait} listens not ready, then exits 1 with the reason once it has passed.
 */
class ServerStartupCommandTest {
  private static final StoreConfig CONFIG = StoreConfig.builder(Geometry.parse("4x2")).build();

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private List<Repository> repositories(Path under, String prefix) throws Exception {
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Path root = Files.createDirectories(under.resolve(prefix + i));
      repositories.add(FsRepository.builder(root).name(prefix + i).build());
    }
    return repositories;
  }

  /** The array on r0..r5, with r0, r2 and r4 then moved away (missing mount points). */
  @BeforeEach
  void array() throws Exception {
    ErasureStore.open(CONFIG, repositories(dir, "r")).close();
    for (int slot : new int[] {0, 2, 4}) {
      Files.move(dir.resolve("r" + slot), dir.resolve("r" + slot + ".away"));
    }
  }

  private int server(String serverSection) throws Exception {
    StringBuilder yaml = new StringBuilder("array:\n  geometry: 4x2\n");
    yaml.append("server:\n  listen: 127.0.0.1:0\n  adminListen: 127.0.0.1:0\n")
        .append("  credentials: [{accessKey: a, secretKey: secret-key}]\n")
        .append(serverSection)
        .append("repositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - {name: r")
          .append(i)
          .append(", type: fs, path: ")
          .append(dir.resolve("r" + i))
          .append("}\n");
    }
    Path file = Files.writeString(dir.resolve("racs.yaml"), yaml);
    return RacsMain.run(
        new PrintWriter(out, true),
        new PrintWriter(err, true),
        "server",
        "--config",
        file.toString(),
        "--access-log",
        "off");
  }

  @Test
  void server_whenARepositoryBelongsToAnotherArray_exits1AtOnce() throws Exception {
    ErasureStore.open(CONFIG, repositories(dir.resolve("other"), "o")).close();
    Files.move(dir.resolve("r1"), dir.resolve("r1.mine"));
    Files.move(dir.resolve("other").resolve("o1"), dir.resolve("r1"));

    assertThat(server("")).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString()).contains("racs server: ", "different arrays");
    assertThat(out.toString()).doesNotContain("RACS serving S3");
  }

  @Test
  void server_whenStartupWaitIsZero_exits1AtOnce() throws Exception {
    assertThat(server("  startupWait: 0s\n")).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString()).contains("only 3 of 6 repositories can serve array");
    assertThat(out.toString()).doesNotContain("RACS serving S3");
  }

  @Test
  void server_whenStartupWaitPasses_listensNotReadyThenExits1() throws Exception {
    assertThat(server("  startupWait: 200ms\n")).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString())
        .contains("RACS serving S3", "not ready: the array is not open yet (only 3 of 6")
        .doesNotContain("\nready\n");
    assertThat(err.toString()).contains("did not open within startupWait (PT0.2S");
  }
}
