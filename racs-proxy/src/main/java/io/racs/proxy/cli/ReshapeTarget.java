package io.racs.proxy.cli;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.array.Identity;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.repos.Repository;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A reshape's two ends as the commands read them: the array as {@code --config} has it and as
 * {@code --to} wants it, checked (each file's {@code array:} section; every repository the target
 * adds reachable and empty), and what the target keeps, adds and retires, by repository name.
 */
final class ReshapeTarget {
  final ArrayConfig from;
  final ArrayConfig to;
  // Repository names by slot.
  final List<String> before;
  final List<String> after;

  private ReshapeTarget(ArrayConfig from, ArrayConfig to) {
    this.from = from;
    this.to = to;
    this.before = names(from.slots());
    this.after = names(to.slots());
  }

  /**
   * Loads and checks both files.
   *
   * @throws IllegalArgumentException when a repository the target adds holds data
   * @throws io.racs.repos.config.ConfigException when a file is invalid
   * @throws io.racs.repos.RepositoryException when an added repository cannot be listed
   */
  static ReshapeTarget load(Path config, Path target) {
    ReshapeTarget t = new ReshapeTarget(ArrayConfig.load(config), ArrayConfig.load(target));
    for (RepositoryConfig added : t.to.slots()) {
      if (!t.before.contains(added.name())) {
        requireEmpty(added);
      }
    }
    return t;
  }

  private static List<String> names(List<RepositoryConfig> slots) {
    return slots.stream().map(RepositoryConfig::name).toList();
  }

  /** An added repository must hold nothing: not another array's data, nor this one's. */
  private static void requireEmpty(RepositoryConfig added) {
    try (Repository repository = RepositoryFactory.create(added)) {
      Optional<String> marked = Identity.markedAs(repository);
      if (marked.isPresent()) {
        throw new IllegalArgumentException(
            "--to: added repository "
                + added.name()
                + " carries "
                + marked.get()
                + " (expected: an empty, unmarked repository to add; a repository of an array,"
                + " retired or not, is never added as a new slot)");
      }
      if (!repository.list("", "", 1).objects().isEmpty()) {
        throw new IllegalArgumentException(
            "--to: added repository "
                + added.name()
                + " holds data (expected: an empty repository to add)");
      }
    }
  }

  /** Whether the target is the array as it is: the same geometry over the same slots. */
  boolean unchanged() {
    return from.store().geometry().equals(to.store().geometry()) && before.equals(after);
  }

  /** {@code 4x2 over a, b, ... -> 6x3 over a, b, ...}. */
  String describe() {
    return from(0).describe() + " -> " + to(1).describe();
  }

  /** The layout the reshape starts from, as generation {@code number}. */
  ArrayRecord.Generation from(int number) {
    return new ArrayRecord.Generation(number, from.store().geometry().toString(), before);
  }

  /** The layout the reshape moves into, as generation {@code number}. */
  ArrayRecord.Generation to(int number) {
    return new ArrayRecord.Generation(number, to.store().geometry().toString(), after);
  }

  /** {@code kept: ...; added: ...; retired: ...}, with the slots that change. */
  String changes() {
    ArrayRecord.Change change = to(1).changesFrom(before);
    List<String> kept = new ArrayList<>();
    for (int slot = 0; slot < after.size(); slot++) {
      String name = after.get(slot);
      int was = before.indexOf(name);
      if (was >= 0) {
        boolean same = from.slots().get(was).equals(to.slots().get(slot));
        kept.add(
            name
                + (was == slot ? "" : " (slot " + was + " -> " + slot + ")")
                + (same ? "" : " (defined differently in --to)"));
      }
    }
    return "kept: "
        + listed(kept)
        + "; added: "
        + listed(change.added())
        + "; retired: "
        + listed(change.retired());
  }

  private static String listed(List<String> names) {
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
