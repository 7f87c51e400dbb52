package io.racs.repos;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Helpers over any {@link Repository}. */
public final class Repositories {
  private Repositories() {}

  /**
   * Iterates over every object whose key starts with {@code prefix}, in key order, fetching pages
   * of {@code pageSize} lazily. Repository failures surface from {@link Iterator#next()} and {@link
   * Iterator#hasNext()}.
   */
  public static Iterator<ObjectInfo> listAll(Repository repository, String prefix, int pageSize) {
    Keys.checkMaxKeys(pageSize);
    return new Iterator<>() {
      private final ArrayDeque<ObjectInfo> buffered = new ArrayDeque<>();
      private String startAfter = "";
      private boolean exhausted;

      @Override
      public boolean hasNext() {
        while (buffered.isEmpty() && !exhausted) {
          ListPage page = repository.list(prefix, startAfter, pageSize);
          buffered.addAll(page.objects());
          if (page.truncated()) {
            startAfter = page.nextStartAfter().orElseThrow();
          } else {
            exhausted = true;
          }
        }
        return !buffered.isEmpty();
      }

      @Override
      public ObjectInfo next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return buffered.removeFirst();
      }
    };
  }
}
