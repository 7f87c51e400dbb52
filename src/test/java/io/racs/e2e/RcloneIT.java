package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * rclone 1.60, with an S3 remote configured only through environment variables, drives the proxy
 * process over six MinIO servers (4x2), over HTTP and over HTTPS with {@code --ca-cert}: {@code
 * copy} of a tree holding 0 B, 1 B, 5 MiB + 1 and 70 MiB files (70 MiB goes multipart), {@code
 * check} finding 0 differences, {@code ls}/{@code lsf}, {@code sync} copying only the changed file
 * and deleting the removed one, a byte-exact copy back, and {@code delete}.
 */
class RcloneIT {
  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;

  /** Runs {@code rclone <args>} with the remote {@code racs:}; must succeed. */
  private static Launcher.Result rclone(boolean secure, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.rclone().toString());
    command.addAll(Arrays.asList(args));
    if (secure) {
      command.add("--ca-cert");
      command.add(PROXIES.tls().cert().toString());
    }
    Map<String, String> env = Clients.cleanEnv(dir.resolve("home"));
    // rclone 1.60 fails on AWS_CA_BUNDLE; cleanEnv removes it, and the remote is all here.
    env.put("RCLONE_CONFIG_RACS_TYPE", "s3");
    env.put("RCLONE_CONFIG_RACS_PROVIDER", "Other");
    env.put("RCLONE_CONFIG_RACS_ENDPOINT", PROXIES.proxy(secure).endpoint().toString());
    env.put("RCLONE_CONFIG_RACS_ACCESS_KEY_ID", ProxyProcess.ACCESS_KEY);
    env.put("RCLONE_CONFIG_RACS_SECRET_ACCESS_KEY", ProxyProcess.SECRET_KEY);
    env.put("RCLONE_CONFIG_RACS_REGION", "us-east-1");
    env.put("RCLONE_CONFIG_RACS_FORCE_PATH_STYLE", "true");
    // The default cutoff is 200 MiB; at 16 MiB the 70 MiB file goes multipart in 5 MiB parts.
    env.put("RCLONE_CONFIG_RACS_UPLOAD_CUTOFF", "16M");
    return Clients.ok(command, env);
  }

  @Test
  void copyCheckSyncDelete_overHttp_everySizeByteExact() throws Exception {
    Path tree = dir.resolve("plain-tree");
    List<String> names = new ArrayList<>();
    for (long size : Clients.SIZES) {
      String name = (size > Clients.MIB ? "big/" : "small/") + "size-" + size;
      Clients.seededFile(tree.resolve(name), 500 + size, size);
      names.add(name);
    }
    roundTrip(false, tree, "rclone-plain", names);
  }

  @Test
  void copyCheckSyncDelete_overHttps_smallTreeByteExact() throws Exception {
    Path tree = dir.resolve("tls-tree");
    List<String> names = new ArrayList<>();
    for (long size : List.of(0L, 1L, 5 * Clients.MIB + 1, 17 * Clients.MIB)) {
      String name = "files/size-" + size;
      Clients.seededFile(tree.resolve(name), 600 + size, size);
      names.add(name);
    }
    roundTrip(true, tree, "rclone-tls", names);
  }

  private static void roundTrip(boolean secure, Path tree, String bucket, List<String> names)
      throws Exception {
    String remote = "racs:" + bucket + "/t";
    rclone(secure, "copy", tree.toString(), remote);
    assertThat(rclone(secure, "check", tree.toString(), remote).stderr())
        .contains("0 differences found");
    List<String> lsf =
        rclone(secure, "lsf", "-R", "--files-only", remote).stdout().lines().toList();
    assertThat(lsf).containsExactlyInAnyOrderElementsOf(names);
    List<String> ls = rclone(secure, "ls", remote).stdout().lines().map(String::strip).toList();
    for (String name : names) {
      assertThat(ls).contains(Files.size(tree.resolve(name)) + " " + name);
    }

    // One file changes size, one is removed: sync copies the one and deletes the other.
    String changed = names.get(1);
    String removed = names.get(0);
    Clients.seededFile(tree.resolve(changed), 999, 2048);
    Files.delete(tree.resolve(removed));
    String sync = rclone(secure, "sync", "-v", tree.toString(), remote).stderr();
    assertThat(sync.lines().filter(l -> l.contains(": Copied")).toList())
        .singleElement()
        .satisfies(l -> assertThat(l).contains(changed + ": Copied"));
    assertThat(sync.lines().filter(l -> l.contains(": Deleted")).toList())
        .singleElement()
        .satisfies(l -> assertThat(l).contains(removed + ": Deleted"));
    assertThat(rclone(secure, "check", tree.toString(), remote).stderr())
        .contains("0 differences found");

    Path back = dir.resolve(bucket + "-back");
    rclone(secure, "copy", remote, back.toString());
    for (String name : names.subList(1, names.size())) {
      assertThat(Clients.md5Hex(back.resolve(name)))
          .as(name)
          .isEqualTo(Clients.md5Hex(tree.resolve(name)));
    }
    assertThat(back.resolve(removed)).doesNotExist();

    rclone(secure, "delete", remote + "/" + changed);
    assertThat(rclone(secure, "lsf", "-R", "--files-only", remote).stdout().lines().toList())
        .containsExactlyInAnyOrderElementsOf(names.subList(2, names.size()));
    rclone(secure, "delete", remote);
    assertThat(rclone(secure, "lsf", "-R", "--files-only", remote).stdout()).isEmpty();
  }
}
