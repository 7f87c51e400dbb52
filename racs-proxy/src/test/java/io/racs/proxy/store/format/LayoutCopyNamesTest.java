package io.racs.proxy.store.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the names of the copies a reshape's mover writes (docs/reshape.md §3): a copy {@code
 * <vid>-a<gen>} lists right after its version's entry and before the version's removal record,
 * never between two other versions of the key, names its version and generation back, and fits
 * wherever the key's longest name does.
 */
class LayoutCopyNamesTest {
  private final VersionId ids = new VersionId(Clock.systemUTC());

  @Test
  void copyEntry_sortsAfterItsEntryBeforeItsRemovalAndNextVersion() {
    String prefix = Layout.indexKeyPrefix("bkt", "key");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      String entry = prefix + ids.next();
      names.add(entry);
      names.add(Layout.copyEntry(entry, 1));
      names.add(Layout.copyEntry(entry, 12));
      names.add(Layout.removalRecord(entry));
    }
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(null); // UTF-16 order equals UTF-8 binary order for these ASCII names
    // Newest first by id, and each version's names together: entry, copies by generation, removal.
    List<String> expected = new ArrayList<>();
    for (int v = names.size() - 4; v >= 0; v -= 4) {
      expected.addAll(names.subList(v, v + 4));
    }
    assertThat(sorted).isEqualTo(expected);
  }

  @Test
  void copyEntry_namesItsVersionAndGenerationBack() {
    String vid = ids.next();
    String entry = Layout.indexEntry("bkt", "a/b-a0001", vid);
    String copy = Layout.copyEntry(entry, 7);

    assertThat(copy).endsWith(vid + "-a0007");
    assertThat(Layout.isCopy(copy)).isTrue();
    assertThat(Layout.isCopy(entry)).as("a key ending like a copy is not one").isFalse();
    assertThat(Layout.isRemovalRecord(copy)).isFalse();
    assertThat(Layout.copiedEntry(copy)).isEqualTo(entry);
    assertThat(Layout.copyGeneration(copy)).isEqualTo(7);
    assertThat(Layout.versionOf(copy)).isEqualTo(vid);
    assertThat(Layout.versionOf(entry)).isEqualTo(vid);
  }

  @Test
  void copyEntry_fitsWhereverTheLongestNameOfItsKeyFits() {
    // A key as long as a 1024-byte name allows keeps the room of a part record's /p10000.
    String nameKey = Layout.nameKey("bkt", "k".repeat(1024), Layout::fitsKeyLimit);
    String entry = Layout.indexEntry("bkt", nameKey, ids.next());
    assertThat(Layout.fitsKeyLimit(Layout.copyEntry(entry, 9999))).isTrue();
    assertThat(Layout.fitsKeyLimit(Layout.removalRecord(entry))).isTrue();
  }

  @Test
  void copyEntry_whenGenerationOrEntryInvalid_isRefused() {
    String entry = Layout.indexEntry("bkt", "key", ids.next());
    assertThatThrownBy(() -> Layout.copyEntry(entry, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("generation: 0 (expected: 1 to 9999)");
    assertThatThrownBy(() -> Layout.copyEntry(entry, 10_000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Layout.copyEntry(Layout.copyEntry(entry, 1), 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Layout.copyEntry(Layout.removalRecord(entry), 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
