package io.racs.proxy.store.array;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The slots one request found stalled, so that it waits for each of them once: a request goes
 * through phases (the key's listing, its version record, a read of the shards started early beside
 * the listing, the read again once the version is known, the listing again to see whether the
 * version is still current), and each phase that asked a stalled repository would wait its own
 * stall deadline for it. {@link SlotBreaker} suspends a stalled slot for every request, but never
 * more than m at once; with more than m stalled, the one it cannot suspend would cost a request one
 * stall deadline per phase, and the request's 503 would come after several. Once a slot has missed
 * its stall deadline in one phase, {@link SlotBreaker#usable} is false for it for the rest of the
 * same request (docs/quorum.md, "One stall per request"); later requests ask it again.
 *
 * <p>A request is what {@link #within} runs, on its thread; work it hands to another thread takes
 * the request along with {@link #carry}. Outside a request nothing is remembered. A nested {@link
 * #within} joins the request already running.
 *
 * <p>Thread-safe: the phases of one request may run on several threads at once.
 */
public final class RequestStalls {
  private static final ThreadLocal<RequestStalls> CURRENT = new ThreadLocal<>();

  // The slots stalled in this request, with why, per array (one store's breaker).
  private final Map<SlotBreaker, AtomicReferenceArray<String>> stalled = new ConcurrentHashMap<>();

  private RequestStalls() {}

  /**
   * Runs {@code request} as one request: the slots it finds stalled are not waited for again until
   * it returns. Inside a request already running, joins it.
   */
  public static <T> T within(Supplier<T> request) {
    if (CURRENT.get() != null) {
      return request.get();
    }
    CURRENT.set(new RequestStalls());
    try {
      return request.get();
    } finally {
      CURRENT.remove();
    }
  }

  /** As {@link #within(Supplier)}, for a request with no result. */
  public static void within(Runnable request) {
    within(
        () -> {
          request.run();
          return null;
        });
  }

  /**
   * {@code work} to run on another thread as part of the request running here (none: {@code work}
   * as it is), so that the slots either finds stalled count for both.
   */
  public static <T> Supplier<T> carry(Supplier<T> work) {
    RequestStalls request = CURRENT.get();
    if (request == null) {
      return work;
    }
    return () -> {
      RequestStalls before = CURRENT.get();
      CURRENT.set(request);
      try {
        return work.get();
      } finally {
        if (before == null) {
          CURRENT.remove();
        } else {
          CURRENT.set(before);
        }
      }
    };
  }

  /** Notes that {@code slot} of {@code breaker}'s array stalled in the request running here. */
  static void note(SlotBreaker breaker, int slot, int slots, String reason) {
    RequestStalls request = CURRENT.get();
    if (request != null) {
      request
          .stalled
          .computeIfAbsent(breaker, b -> new AtomicReferenceArray<>(slots))
          .compareAndSet(slot, null, reason);
    }
  }

  /** Why {@code slot} stalled earlier in the request running here, or null if it did not. */
  static String reason(SlotBreaker breaker, int slot) {
    RequestStalls request = CURRENT.get();
    if (request == null) {
      return null;
    }
    AtomicReferenceArray<String> slots = request.stalled.get(breaker);
    return slots == null ? null : slots.get(slot);
  }
}
