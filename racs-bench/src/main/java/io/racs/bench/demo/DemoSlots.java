package io.racs.bench.demo;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's six slots and what happens to their storage, whichever kind it is: local directories
 * or MinIO processes ({@link DemoRepositories}), or four storage APIs at once ({@link
 * CloudRepositories}). The demo's flow calls these in order: {@link #prepareDirectory()}, {@link
 * #open()}, {@link #writeConfig}, then {@link #breakSlots}, {@link #comeBack}, {@link
 * #restoreSlots}, and {@link #close()} at the end. One caller at a time.
 */
interface DemoSlots extends AutoCloseable {
  /** What step 1 says it does, e.g. "creating 6 local-directory repositories". */
  String startStep();

  /**
   * Empties the demo directory (refusing one the demo did not create) and marks it as the demo's.
   */
  void prepareDirectory() throws IOException;

  /**
   * Opens repositories over the six slots, starting their servers the first time; later calls (one
   * per proxy, or after a restart) open clients of their own to the same servers.
   */
  List<Repository> open() throws IOException;

  /** Lines for step 1 on what runs in which slot, after {@link #open()}; none by default. */
  default List<String> lines() {
    return List.of();
  }

  /** Writes {@code racs.yaml} naming the six repositories, after {@link #open()} started them. */
  Path writeConfig(Geometry geometry) throws IOException;

  /** The slots as the demo's output names them, e.g. "slots 1 and 4". */
  String describe(int... slots);

  /** Takes the slots' storage away: a server stops or crashes, or a directory moves aside. */
  void breakSlots(int... slots) throws IOException;

  /** Undoes {@link #breakSlots}: the same storage comes back with what it held. */
  void restoreSlots(int... slots) throws IOException;

  /** What step 5 says happens to the broken slots before the heal. */
  String comeBackStep();

  /**
   * Brings the broken slots back for the heal: empty, as a replaced disk or a new provider would,
   * or restarted with what they held.
   */
  void comeBack(int... slots) throws IOException;

  /**
   * Whether the proxy must reopen its repositories after {@link #comeBack}: a local directory
   * re-created empty under a running repository is refused, as an unmounted disk's mount point
   * would be.
   */
  boolean reopenAfterComeBack();

  /** Stops every server the slots started; local directories stay for a look afterwards. */
  @Override
  void close();
}
