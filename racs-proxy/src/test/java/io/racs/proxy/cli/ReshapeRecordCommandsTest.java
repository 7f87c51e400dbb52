package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.repos.Repository;
import io.racs.repos.config.RepositoryFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the reshape recorded on the array, on real {@code fs} repositories, one process per
 * command as an operator runs them: {@code status} exits 0 with none recorded, {@code start}
 * records the target and {@code status} then exits 3 naming it, a second {@code start} is refused,
 * {@code abort} gives it up (status 0, "aborted") and cannot be repeated; a failed reshape makes
 * {@code status} exit 1 naming the error; an invalid target records nothing; and an array record on
 * fewer repositories than the write quorum does not count. Once a reshape is complete, a command
 * opening the array with the old file is refused in one line naming what changed.
 */
class ReshapeRecordCommandsTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path current;
  private Path target;

  private int racs(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private Path config(String name, String geometry, int repositories) throws IOException {
    return FsArrayFiles.write(dir, name, geometry, repositories, "");
  }

  @BeforeEach
  void array() throws IOException {
    current = config("racs.yaml", "4x2", 6);
    target = config("new.yaml", "6x3", 9);
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.createBucket("bkt"); // an array with something in it
    }
  }

  /** Starts the reshape to {@code target}, then records it {@code state}, as a mover would. */
  private void startThen(ArrayRecord.State state, String reason) {
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isZero();
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      ArrayRecords records = new ArrayRecords(store);
      ArrayRecord running = records.current().orElseThrow();
      records.write(running.next(records.nextId(), state, reason));
    }
  }

  private int status() {
    return racs("reshape", "status", "--config", current.toString());
  }

  @Test
  void startStatusAbort_recordTheTargetAndReadItBack() {
    assertThat(status()).as(err.toString()).isZero();
    assertThat(out.toString()).contains("reshape status: none recorded").contains("4x2");

    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("reshape start: recorded on array ")
        .contains("4x2 over r0, r1, r2, r3, r4, r5 -> 6x3 over r0, r1, r2, r3, r4, r5, r6, r7, r8")
        .contains("(generation 0 -> 1)")
        .contains("added: r6 (slot 6), r7 (slot 7), r8 (slot 8)");

    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .contains("reshape status: running since ")
        .contains("-> 6x3 over r0, r1, r2, r3, r4, r5, r6, r7, r8 (generation 0 -> 1)");

    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().strip())
        .startsWith("racs reshape start: a reshape is already recorded (running): 4x2 over")
        .endsWith("; abort it first");

    assertThat(racs("reshape", "abort", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("the array stays 4x2 over r0, r1, r2, r3, r4, r5");
    assertThat(status()).isZero();
    assertThat(out.toString()).contains("reshape status: aborted: the array is 4x2 over");

    assertThat(racs("reshape", "abort", "--config", current.toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString()).contains("nothing to abort: the reshape to 6x3 over");
  }

  @Test
  void status_whenReshapeFailed_exits1NamingTheError() {
    startThen(ArrayRecord.State.FAILED, "slot 7 (r7): disk full");

    assertThat(status()).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).contains("reshape status: failed: slot 7 (r7): disk full (4x2 over");
  }

  @Test
  void status_whenRecordHasNoTotals_saysRemainingIsUnknown() {
    // A reshape recorded by a version that did not keep the plan's totals.
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isZero();
    assertThat(out.toString()).contains("to move: 0 versions, 0 bytes (of 0 versions)");
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      ArrayRecords records = new ArrayRecords(store);
      ArrayRecord running = records.current().orElseThrow();
      assertThat(running.totals()).isEqualTo(new ArrayRecord.Totals(0, 0));
      records.write(
          running.next(records.nextId(), ArrayRecord.State.RUNNING, null).withTotals(null));
    }

    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .contains(
            "remaining and ETA: unknown (this reshape was started before its totals were"
                + " recorded)");
  }

  @Test
  void start_whenTargetInvalid_recordsNothing() throws IOException {
    try (Repository r8 = RepositoryFactory.create(ArrayConfig.load(target).slots().get(8))) {
      byte[] stray = "not empty".getBytes(StandardCharsets.UTF_8);
      r8.put("stray", new ByteArrayInputStream(stray), stray.length);
    }
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("added repository r8 holds data");
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", current.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--to: the array already is 4x2 over");

    assertThat(status()).isZero();
    assertThat(out.toString()).contains("none recorded");
  }

  @Test
  void status_whenNewestRecordBelowWriteQuorum_theOlderOneDecides() throws IOException {
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isZero();
    assertThat(racs("reshape", "abort", "--config", current.toString())).isZero();
    // The abort's record lost from three of six repositories: on 3 < 4 (the write quorum), it
    // is what a failed write leaves, and the start's record decides again.
    List<Repository> repositories = ArrayConfig.load(current).openRepositories();
    try {
      String newest = null;
      for (var info : repositories.get(0).list(Layout.ARRAY_RECORDS, "", 10).objects()) {
        newest = newest == null ? info.key() : newest; // newest first
      }
      assertThat(newest).isNotNull();
      for (int slot = 0; slot < 3; slot++) {
        repositories.get(slot).delete(newest);
      }
    } finally {
      repositories.forEach(Repository::close);
    }

    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
  }

  @Test
  void commands_whenReshapeComplete_refuseTheOldFileInOneLine() {
    startThen(ArrayRecord.State.COMPLETE, null);

    // heal refuses the old file in one line...
    assertThat(racs("heal", "--config", current.toString())).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().strip())
        .startsWith(
            "racs heal: the array was reshaped to 6x3 over 9 repositories (added: r6 (slot 6), r7"
                + " (slot 7), r8 (slot 8)) on ")
        .endsWith("this file is 4x2 over 6: start with the new configuration")
        .doesNotContain("\n");
    // The proxy opens the array the same way, before it listens.
    assertThat(racs("server", "--config", current.toString(), "--listen", "127.0.0.1:0"))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().strip())
        .startsWith("racs server: the array was reshaped to 6x3 over 9 repositories (added: r6")
        .doesNotContain("\n");
    // ...while status reads the record whatever the file.
    assertThat(status()).isZero();
    assertThat(out.toString()).contains("reshape status: complete: the array is 6x3 over");
  }

  @Test
  void help_listsTheStatusExitCodes() {
    assertThat(racs("reshape", "status", "--help")).isZero();
    assertThat(out.toString())
        .contains("0   no reshape in progress")
        .contains("1   the reshape failed")
        .contains("3   the reshape is running");
  }
}
