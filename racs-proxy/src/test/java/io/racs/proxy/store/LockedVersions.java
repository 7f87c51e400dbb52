package io.racs.proxy.store;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/** What the object lock tests of the background jobs write and check. */
public final class LockedVersions {
  /** The bytes every version written here holds. */
  public static final byte[] DATA = "locked bytes".getBytes(StandardCharsets.UTF_8);

  private LockedVersions() {}

  /** Writes a version of {@code key} with {@code lock} (null: as the bucket gives). */
  public static VersionMeta put(ObjectStore store, String bucket, String key, ObjectLock lock) {
    return store.put(
        bucket,
        key,
        new ByteArrayInputStream(DATA),
        DATA.length,
        ObjectStore.PutOptions.defaults().withLock(lock));
  }

  /** True while the store still finds exactly {@code v}. */
  public static boolean readable(ObjectStore store, VersionMeta v) {
    try {
      store.version(v.bucket(), v.key(), v.versionId());
      return true;
    } catch (StoreException e) {
      return false;
    }
  }
}
