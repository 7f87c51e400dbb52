package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that {@code racs reshape start} records slot ids for a reshape that adds and retires
 * repositories (docs/reshape.md §2), on real {@code fs} repositories: 4x2 over r0..r5 to 6x3 over
 * r0..r8 gives the added r6..r8 ids 6..8; once complete, 6x3 over r0..r8 to 4x2 over r6..r11 keeps
 * r6..r8's ids and gives r9..r11 the ids 9..11, never a retired one's; and a repository that
 * carries an identity marker (of this array: a retired one, or any) is refused as an added one in
 * one line naming the slot it carries.
 */
class ReshapeSlotIdsCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path current;

  private int racs(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  /** An array file of {@code geometry} over the fs repositories {@code r<i>}. */
  private Path config(String file, String geometry, List<Integer> names) throws IOException {
    return FsArrayFiles.write(dir, file, geometry, names, "");
  }

  private static List<Integer> ids(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  @BeforeEach
  void array() throws IOException {
    current = config("racs.yaml", "4x2", ids(0, 6));
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.createBucket("bkt");
    }
  }

  private ArrayRecord recorded(Path config) {
    try (ErasureStore store = ArrayConfig.load(config).openReadOnly()) {
      return new ArrayRecords(store).current().orElseThrow();
    }
  }

  @Test
  void start_addingThenRetiring_givesAddedRepositoriesIdsNeverGivenBefore() throws IOException {
    Path nine = config("nine.yaml", "6x3", ids(0, 9));
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", nine.toString()))
        .as(err.toString())
        .isZero();
    ArrayRecord first = recorded(current);
    assertThat(first.from().slotIds()).isEqualTo(ids(0, 6));
    assertThat(first.to().slotIds()).isEqualTo(ids(0, 9));
    assertThat(first.to().unusedSlot()).isEqualTo(9);
    assertThat(first.changesRepositories()).isTrue();

    // As the mover would once every version is in 6x3 over r0..r8.
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      ArrayRecords records = new ArrayRecords(store);
      records.write(
          records.current().orElseThrow().next(records.nextId(), ArrayRecord.State.COMPLETE, null));
    }
    Path other = config("other.yaml", "4x2", ids(6, 12));
    assertThat(racs("reshape", "start", "--config", nine.toString(), "--to", other.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("retired: r0, r1, r2, r3, r4, r5");
    ArrayRecord second = recorded(nine);
    assertThat(second.from().slotIds()).isEqualTo(ids(0, 9));
    assertThat(second.to().slotIds()).isEqualTo(ids(6, 12));
    assertThat(second.to().number()).isEqualTo(2);
    assertThat(second.from().retiredBy(second.to()))
        .containsExactly("r0", "r1", "r2", "r3", "r4", "r5");
  }

  @Test
  void start_whenAnAddedRepositoryCarriesAMarker_isRefusedInOneLineNamingIt() throws IOException {
    // r3's marker copied to r6: a repository of this array configured as a new slot.
    Files.createDirectories(dir.resolve("r6"));
    try (Repository r3 = FsRepository.builder(dir.resolve("r3")).build();
        Repository r6 = FsRepository.builder(dir.resolve("r6")).build()) {
      byte[] marker = RepositoryArray.getBytes(r3, Layout.IDENTITY).orElseThrow();
      RepositoryArray.putBytes(r6, Layout.IDENTITY, marker);
    }
    Path target = config("seven.yaml", "4x3", ids(0, 7));
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .isEqualTo(ExitCodes.USAGE);
    String line = err.toString().strip();
    assertThat(line.lines()).hasSize(1);
    assertThat(line)
        .contains("--to: added repository r6 carries slot 3 of array ")
        .contains("never added as a new slot");
    try (ErasureStore store = ArrayConfig.load(current).openReadOnly()) {
      assertThat(new ArrayRecords(store).current()).isEmpty();
    }
  }
}
