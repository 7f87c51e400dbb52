package io.racs.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the aws-cli tests share: the proxy pair over six MinIO servers (4x2), shared with every
 * client test class of the run (buckets prefixed {@code cli-}), a home directory for aws-cli, and
 * runs of {@code aws} against the HTTP or HTTPS proxy.
 *
 * <p>{@link #dir} is one static field for every subclass: JUnit sets it in each class's beforeAll
 * and deletes that directory after the class. Two subclasses run at once would write into each
 * other's directory and lose files when the other ends, so each subclass holds {@link #LOCK}
 * (docs/development.md: e2e classes run two at a time).
 */
abstract class AwsCliSupport {
  /** The resource lock every subclass takes, so that no two of them run at once. */
  static final String LOCK = "AwsCliSupport.dir";

  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;
  static final ObjectMapper JSON = new ObjectMapper();

  /** Runs {@code aws <args> --endpoint-url ...} against the HTTP or HTTPS proxy; must succeed. */
  static Launcher.Result aws(boolean secure, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(Arrays.asList(args));
    command.add("--endpoint-url");
    command.add(PROXIES.proxy(secure).endpoint().toString());
    if (secure) {
      command.add("--ca-bundle");
      command.add(PROXIES.tls().cert().toString());
    }
    Map<String, String> env = Clients.cleanEnv(dir.resolve("home"));
    return Clients.ok(command, env);
  }

  /** {@code aws <args> --endpoint-url <http proxy>}, for a command expected to fail. */
  static List<String> awsCommand(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(Arrays.asList(args));
    command.add("--endpoint-url");
    command.add(PROXIES.http().endpoint().toString());
    return command;
  }
}
