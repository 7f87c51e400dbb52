package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.format.VersionMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Proves the version record cache keeps the most recently used records up to its capacity. */
class VersionCacheTest {
  private static VersionMeta meta(String key) {
    return new VersionMeta(
        1, "array", "b", key, "v", false, 0, "", null, null, null, 0, "4x2", false, List.of(),
        null);
  }

  @Test
  void put_whenFull_evictsTheLeastRecentlyUsed() {
    VersionCache cache = new VersionCache(2);
    cache.put("a", meta("a"));
    cache.put("b", meta("b"));
    assertThat(cache.get("a").key()).isEqualTo("a"); // a is now the most recent
    cache.put("c", meta("c"));
    assertThat(cache.get("b")).isNull();
    assertThat(cache.get("a")).isNotNull();
    assertThat(cache.get("c")).isNotNull();
    assertThat(cache.size()).isEqualTo(2);
    cache.remove("a");
    assertThat(cache.get("a")).isNull();
  }

  @Test
  void create_whenCapacityZero_refused() {
    assertThatThrownBy(() -> new VersionCache(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity: 0 (expected: >= 1)");
  }
}
