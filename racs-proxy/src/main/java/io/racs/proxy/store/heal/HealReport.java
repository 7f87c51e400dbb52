package io.racs.proxy.store.heal;

import java.util.ArrayList;
import java.util.List;

/** What a heal found and did. */
public record HealReport(
    long objectsScanned,
    long recordsRepaired,
    long shardsRebuilt,
    long bytesRead,
    long bytesWritten,
    long leftoversCollected,
    List<String> unrecoverable,
    List<String> unreachableSlots,
    List<String> notDone,
    boolean dryRun,
    boolean stopped) {

  /** One line per figure, as {@code racs heal} prints it. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add((dryRun ? "would heal" : "healed") + ": " + objectsScanned + " objects scanned");
    lines.add("  records " + (dryRun ? "to repair" : "repaired") + ": " + recordsRepaired);
    lines.add("  shards " + (dryRun ? "to rebuild" : "rebuilt") + ": " + shardsRebuilt);
    lines.add("  bytes read: " + bytesRead + ", written: " + bytesWritten);
    lines.add("  leftovers " + (dryRun ? "to collect" : "collected") + ": " + leftoversCollected);
    lines.add(
        "  unreachable repositories: "
            + (unreachableSlots.isEmpty() ? "none" : unreachableSlots.size()));
    unreachableSlots.forEach(u -> lines.add("    " + u));
    lines.add(
        "  unrecoverable objects: " + (unrecoverable.isEmpty() ? "none" : unrecoverable.size()));
    unrecoverable.forEach(u -> lines.add("    " + u));
    lines.add("  not done: " + (notDone.isEmpty() ? "none" : notDone.size()));
    notDone.forEach(u -> lines.add("    " + u));
    return lines;
  }

  /**
   * Whether heal did everything it should: no object unrecoverable, no repository unreachable or
   * failing, nothing left undone. {@code racs heal} exits 1 otherwise.
   */
  public boolean complete() {
    return unrecoverable.isEmpty() && unreachableSlots.isEmpty() && notDone.isEmpty();
  }
}
