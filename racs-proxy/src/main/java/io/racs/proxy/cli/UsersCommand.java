package io.racs.proxy.cli;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.UserAnnouncements;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.users.StoredSecrets;
import io.racs.proxy.users.UserAccounts;
import io.racs.proxy.users.UserChanges;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racs users add|remove|list|attach-policy|detach-policy}: the users stored in the array
 * (docs/access.md "Users"), changed through the array's repositories as {@code racs heal} opens
 * them. Each change is checked first and then written as one record on a write quorum: bad input
 * exits 2 with one line and changes nothing. When the configuration names coordination, the command
 * then announces the change in ZooKeeper (without joining the proxies: {@link
 * UserAnnouncements#announceOnce}), so every proxy re-reads the users at once, and waits (at most
 * {@link UserAnnouncements#ACK_WAIT}) until every live proxy has acknowledged that it re-read them:
 * after {@code remove} returns, no live proxy that acknowledged knows the key; if ZooKeeper cannot
 * be reached within {@link #ANNOUNCE_WAIT} it says so on stderr and still exits 0 (the change is
 * written), and the proxies see it at their next periodic re-read ({@code server.usersRefresh}).
 * Without coordination a new key works through every proxy within a second of its first use, and a
 * removal or a policy change at the proxies' next periodic re-read (docs/access.md).
 */
@Command(
    name = "users",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Add, remove and list the users stored in the array, and their policies.",
    subcommands = {
      UsersCommand.Add.class,
      UsersCommand.Remove.class,
      UsersCommand.ListUsers.class,
      UsersCommand.AttachPolicy.class,
      UsersCommand.DetachPolicy.class
    })
public final class UsersCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** How long a change waits to reach ZooKeeper to announce itself. */
  static final Duration ANNOUNCE_WAIT = Duration.ofSeconds(5);

  // A policy file is read whole only up to this size; past it, it cannot be a policy anyway.
  private static final long MAX_POLICY_FILE_BYTES = 1 << 20;

  @Override
  public Integer call() {
    // "racs users" alone is a usage error: say which subcommands exist.
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /** {@code --config}: the array's configuration, with its keys and master key. */
  static final class Config {
    @Option(
        names = "--config",
        required = true,
        paramLabel = "FILE",
        description = "RACS configuration (repositories, array, server credentials, encryption)")
    Path path;

    /** Opens the array and makes {@code change} to its users, announcing it. */
    void change(PrintWriter err, java.util.function.Consumer<UserAccounts> change) {
      apply(
          err,
          a -> {
            change.accept(a);
            return null;
          });
    }

    /** Opens the array and makes {@code change} to its users, announcing it; its result. */
    <T> T apply(PrintWriter err, Function<UserAccounts, T> change) {
      ArrayConfig array = ArrayConfig.load(path);
      Optional<CoordinationConfig> coordination = CoordinationConfig.from(array.file());
      UserChanges announce =
          coordination.isEmpty() ? UserChanges.NONE : new Announcement(coordination.get(), err);
      return withAccounts(array, announce, change);
    }

    /** Opens the array and runs {@code read} on its users (nothing to announce). */
    <T> T withAccounts(Function<UserAccounts, T> read) {
      return withAccounts(ArrayConfig.load(path), UserChanges.NONE, read);
    }

    private static <T> T withAccounts(
        ArrayConfig array, UserChanges changes, Function<UserAccounts, T> change) {
      ServerConfig server = ServerConfig.from(array.file());
      try (ErasureStore store = array.open()) {
        return change.apply(
            new UserAccounts(
                new UserRecords(store),
                new StoredSecrets(store.config().keys()),
                server.credentials().keySet(),
                changes));
      }
    }
  }

  /** A change announced through a ZooKeeper session of its own, or a line on stderr why not. */
  private record Announcement(CoordinationConfig config, PrintWriter err) implements UserChanges {
    @Override
    public void announce() {
      if (!UserAnnouncements.announceOnce(
          config.zookeeper(), config.namespace(), config.sessionTimeout(), ANNOUNCE_WAIT)) {
        err.printf(
            "users: the change is written, but could not be announced through ZooKeeper at %s;"
                + " the proxies see it at their next re-read (server.usersRefresh)%n",
            config.zookeeper());
        err.flush();
      }
    }

    @Override
    public void listen(java.util.function.Consumer<Runnable> changed) {
      throw new UnsupportedOperationException("a command only announces");
    }
  }

  /** {@code USER POLICY}: a user and the name of one of its policies. */
  static final class UserPolicy {
    @Parameters(index = "0", paramLabel = "USER", description = "the user's name")
    String name;

    @Parameters(index = "1", paramLabel = "POLICY", description = "the policy's name")
    String policy;
  }

  /** {@code racs users add}. */
  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Add a user; print its access key and secret (once).")
  static final class Add implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Config config;

    @Parameters(index = "0", paramLabel = "USER", description = "the user's name")
    String name;

    @Option(
        names = "--access-key",
        paramLabel = "KEY",
        description = "the access key id (default: generated)")
    String accessKey;

    @Option(
        names = "--secret-key",
        paramLabel = "SECRET",
        description = "the secret key (default: generated; prefer generated, as this shows in ps)")
    String secretKey;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      UserAccounts.Added added =
          config.apply(spec.commandLine().getErr(), a -> a.add(name, accessKey, secretKey));
      out.printf("users add: added user %s%n", added.name());
      out.printf("  access key: %s%n", added.accessKeyId());
      if (secretKey == null) {
        out.printf("  secret key: %s%n", added.secretKey());
        out.println("  (the secret is shown only now: keep it)");
      }
      return ExitCodes.OK;
    }
  }

  /** {@code racs users remove}. */
  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Remove a user: its key stops working.")
  static final class Remove implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Config config;

    @Parameters(index = "0", paramLabel = "USER", description = "the user's name")
    String name;

    @Override
    public Integer call() {
      config.change(spec.commandLine().getErr(), a -> a.remove(name));
      spec.commandLine().getOut().printf("users remove: removed user %s%n", name);
      return ExitCodes.OK;
    }
  }

  /** {@code racs users list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "List the users: name, access key, created, policies (never secrets).")
  static final class ListUsers implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Config config;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      var users = config.withAccounts(UserAccounts::list);
      out.printf("users list: %d user%s%n", users.size(), users.size() == 1 ? "" : "s");
      for (var u : users) {
        out.printf(
            "  %s  %s  created %s  policies: %s%n",
            u.name(),
            u.accessKeyId(),
            Instant.ofEpochMilli(u.createdMillis()),
            u.policies().isEmpty() ? "(none)" : String.join(", ", u.policies().keySet()));
      }
      return ExitCodes.OK;
    }
  }

  /** {@code racs users attach-policy}. */
  @Command(
      name = "attach-policy",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Attach an identity policy (AWS JSON) to a user, replacing one of that name.")
  static final class AttachPolicy implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Config config;

    @Mixin UserPolicy user;

    @Option(
        names = "--file",
        required = true,
        paramLabel = "FILE",
        description = "the policy document (JSON, at most 20 KB)")
    Path file;

    @Override
    public Integer call() {
      String json = read(file);
      config.change(spec.commandLine().getErr(), a -> a.attachPolicy(user.name, user.policy, json));
      spec.commandLine()
          .getOut()
          .printf("users attach-policy: attached policy %s to user %s%n", user.policy, user.name);
      return ExitCodes.OK;
    }
  }

  /** {@code racs users detach-policy}. */
  @Command(
      name = "detach-policy",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Detach a policy from a user.")
  static final class DetachPolicy implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin Config config;

    @Mixin UserPolicy user;

    @Override
    public Integer call() {
      config.change(spec.commandLine().getErr(), a -> a.detachPolicy(user.name, user.policy));
      spec.commandLine()
          .getOut()
          .printf("users detach-policy: detached policy %s from user %s%n", user.policy, user.name);
      return ExitCodes.OK;
    }
  }

  /** A policy file as text; its size past the policy limit is the parser's to refuse. */
  static String read(Path file) {
    try {
      if (Files.size(file) > MAX_POLICY_FILE_BYTES) {
        throw new IllegalArgumentException(
            "--file: " + file + " is " + Files.size(file) + " bytes (expected: a policy document)");
      }
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("--file: cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
