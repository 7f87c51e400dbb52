package io.racs.repos;

/**
 * Which safe names (see {@link KeyCodec}) a listing of {@code prefix} after {@code startAfter}
 * needs, for backends that list by walking a tree of safe names ({@code fs}, {@code sftp}): the one
 * rule by which such a walk keeps an object file, descends into a directory, or passes over either.
 * Safe-name paths here are {@code /}-joined components from the root, a directory's ending in
 * {@code /}.
 */
public final class SafeNameRange {
  private final String prefix;
  private final String startAfter;

  private SafeNameRange(String prefix, String startAfter) {
    this.prefix = prefix;
    this.startAfter = startAfter;
  }

  /** The range of a listing of keys starting with {@code prefix}, after {@code startAfter}. */
  public static SafeNameRange of(String prefix, String startAfter) {
    return new SafeNameRange(
        KeyCodec.encodePrefix(prefix), startAfter.isEmpty() ? null : KeyCodec.encode(startAfter));
  }

  /**
   * The directories that the prefix names in full ({@code ""} or ending in {@code /}): every name
   * with the prefix lies under them, so a walk starts there.
   */
  public String startDirectory() {
    return prefix.substring(0, prefix.lastIndexOf('/') + 1);
  }

  /** Whether the object file at {@code path} is in the listing. */
  public boolean holdsObject(String path) {
    return path.startsWith(prefix) && (startAfter == null || Keys.compare(path, startAfter) > 0);
  }

  /**
   * Whether the directory at {@code path} (ending in {@code /}) may hold an object of the listing:
   * it lies within the prefix or on its way, and does not sort wholly before the start (everything
   * below a directory that sorts before startAfter, and is not on its path, sorts before it too).
   */
  public boolean mayHoldObjects(String path) {
    return (path.startsWith(prefix) || prefix.startsWith(path))
        && (startAfter == null
            || Keys.compare(path, startAfter) >= 0
            || startAfter.startsWith(path));
  }
}
