package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.memory.MemoryRepository;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that a slot found stalled in one fan-out of a request is not asked again in the request's
 * later fan-outs, even where the breaker may suspend none (its limit reached), also when the stall
 * was found on another thread the request handed work to; and that the next request, and work
 * outside any request, ask it again. The absolute timeout is a minute, so a fan-out that waited for
 * the frozen slot would outlast the class timeout.
 */
@Timeout(30)
class RequestStallsTest {
  private final List<FaultyRepository> repositories =
      List.of(
          new FaultyRepository(MemoryRepository.create("r0")),
          new FaultyRepository(MemoryRepository.create("r1")),
          new FaultyRepository(MemoryRepository.create("r2")));
  // A read quorum of 1 lets the breaker suspend no slot at all: what is left is the request's own.
  private final RepositoryArray array =
      new RepositoryArray(
          List.copyOf(repositories),
          TimeUnit.MINUTES.toNanos(1),
          1,
          TimeUnit.MILLISECONDS.toNanos(100));
  private final BiFunction<Integer, Repository, Optional<?>> head = (slot, r) -> r.head("x");
  private final FaultyRepository frozen = repositories.get(2);

  @AfterEach
  void close() {
    frozen.thaw();
    array.close();
  }

  @Test
  void fanOut_whenASlotStalledEarlierInTheRequest_skipsItForTheRestOfTheRequestOnly() {
    frozen.freeze();
    RequestStalls.within(
        () -> {
          List<RepositoryArray.Outcome<Optional<?>>> first = array.fanOut(null, head, 2);
          assertThat(first.get(2).cause()).contains("TIMEOUT").contains("stalled");
          long asked = frozen.calls();

          List<RepositoryArray.Outcome<Optional<?>>> second = array.fanOut(null, head, 2);
          assertThat(second.get(2).cause())
              .contains("UNAVAILABLE")
              .contains("stalled earlier in this request");
          assertThat(array.fanOutQuorum(null, head, 2).get(2).cause())
              .contains("stalled earlier in this request");
          assertThat(frozen.calls()).as("asked again in the same request").isEqualTo(asked);
          assertThat(array.health().usable(2)).isFalse();
        });
    assertThat(array.health().usable(2)).as("outside the request, and not suspended").isTrue();
    long before = frozen.calls();
    RequestStalls.within(
        () -> assertThat(array.fanOut(null, head, 2).get(2).cause()).contains("TIMEOUT"));
    assertThat(frozen.calls()).as("the next request asks it again").isGreaterThan(before);
  }

  @Test
  void carry_whenWorkOnAnotherThreadFindsAStall_theRequestSkipsTheSlot() {
    frozen.freeze();
    RequestStalls.within(
        () -> {
          CompletableFuture.supplyAsync(
                  RequestStalls.carry(() -> array.fanOut(null, head, 2)), array.executor())
              .join();
          long asked = frozen.calls();
          assertThat(array.fanOut(null, head, 2).get(2).failure())
              .isInstanceOfSatisfying(
                  RepositoryException.class,
                  e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNAVAILABLE));
          assertThat(frozen.calls()).isEqualTo(asked);
        });
  }

  @Test
  void within_whenNested_joinsTheRequestAlreadyRunning() {
    frozen.freeze();
    RequestStalls.within(
        () -> {
          RequestStalls.within(() -> array.fanOut(null, head, 2));
          assertThat(array.health().usable(2)).isFalse();
        });
  }
}
