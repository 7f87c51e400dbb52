package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The yielding waits keep the contracts of the waits they stand for, on virtual threads too. */
class WaitsTest {
  private static final long LONG = 30_000_000_000L;

  @Test
  void poll_returnsWhatIsThere_whatArrivesLater_orNullAfterTheTimeout() throws Exception {
    ArrayBlockingQueue<String> queue = new ArrayBlockingQueue<>(2);
    queue.add("ready");
    assertThat(Waits.poll(queue, LONG)).isEqualTo("ready");
    assertThat(Waits.poll(queue, 1_000_000L)).isNull();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<String> waiter = threads.submit(() -> Waits.poll(queue, LONG));
      queue.put("later");
      assertThat(waiter.get()).isEqualTo("later");
    }
  }

  @Test
  void await_isTrueOnceCountedDown_andFalseAfterTheTimeout() throws Exception {
    CountDownLatch latch = new CountDownLatch(1);
    assertThat(Waits.await(latch, 1_000_000L)).isFalse();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Boolean> waiter = threads.submit(() -> Waits.await(latch, LONG));
      latch.countDown();
      assertThat(waiter.get()).isTrue();
    }
    assertThat(Waits.await(latch, 0)).isTrue();
  }

  @Test
  void pollCompletion_returnsTheFinishedTask_orNullAfterTheTimeout() throws Exception {
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      CompletionService<String> done = new ExecutorCompletionService<>(threads);
      assertThat(Waits.poll(done, 1_000_000L)).isNull();
      CountDownLatch go = new CountDownLatch(1);
      done.submit(
          () -> {
            go.await();
            return "answer";
          });
      go.countDown();
      assertThat(Waits.poll(done, LONG).get()).isEqualTo("answer");
    }
  }
}
