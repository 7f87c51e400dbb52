package io.racs.proxy.store;

import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.testing.TestArray;

/**
 * The array the tests of the layers above the store run on: an {@link ErasureStore} with the
 * default settings over fresh memory repositories named {@code mem0}, {@code mem1}, and so on.
 * Tests of the store itself, which script faults, use {@link StoreFixture}.
 */
public final class MemoryArray {
  private MemoryArray() {}

  /** Opens a new, empty array of {@code geometry} ({@code DxP}, such as {@code 4x2}). */
  public static ErasureStore open(String geometry) {
    return open(geometry, null);
  }

  /** {@link #open(String)}, holding {@code keys} for SSE-S3 (null for none). */
  public static ErasureStore open(String geometry, Keyring keys) {
    TestArray.Builder array = TestArray.builder(geometry);
    if (keys != null) {
      array.keys(keys);
    }
    return array.open().store();
  }
}
