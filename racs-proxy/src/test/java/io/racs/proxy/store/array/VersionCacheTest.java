package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.format.VersionMeta;
import org.junit.jupiter.api.Test;

/** Proves the version record cache keeps the most recently used records up to its capacity. */
class VersionCacheTest {
  private static VersionMeta meta(String key) {
    return VersionMeta.builder()
        .arrayId("array")
        .bucket("b")
        .key(key)
        .versionId("v")
        .etag("")
        .lastModifiedMillis(0)
        .geometry("4x2")
        .build();
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
