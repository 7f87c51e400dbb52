package io.racs.repos;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a {@link Repository#list} answer.
 *
 * @param objects the objects, in UTF-8 binary key order
 * @param truncated true when more keys may follow: list again from {@link #nextStartAfter()}
 */
public record ListPage(List<ObjectInfo> objects, boolean truncated) {
  /** Copies the list. */
  public ListPage {
    objects = List.copyOf(Objects.requireNonNull(objects, "objects"));
    if (truncated && objects.isEmpty()) {
      throw new IllegalArgumentException("truncated: true (expected: false for an empty page)");
    }
  }

  /** The {@code startAfter} of the next page, or empty when this page is the last. */
  public Optional<String> nextStartAfter() {
    return truncated ? Optional.of(objects.getLast().key()) : Optional.empty();
  }
}
