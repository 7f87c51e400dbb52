package io.racs.repos.decorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves the metered decorator counts calls, failures by kind and body bytes per operation, keeps
 * one latency sample per call, starts a new latency interval at each snapshot, and can be found
 * inside a decorator chain.
 */
class MeteredRepositoryTest {
  @Test
  void snapshot_afterCalls_countsCallsBytesFailuresAndLatencies() throws IOException {
    MeteredRepository metered = new MeteredRepository(MemoryRepository.create("m"));
    metered.put("a", SeededBytes.stream(1, 1000), 1000);
    metered.put("b", SeededBytes.stream(2, 24), -1);
    try (ObjectStream in = metered.get("a", 10, 100)) {
      in.readAllBytes();
    }
    assertThatThrownBy(() -> metered.get("missing")).isInstanceOf(RepositoryException.class);
    metered.head("a");
    metered.list("", "", 5);
    metered.delete("b");

    Map<Operation, MeteredRepository.OperationStats> stats = metered.snapshot();
    assertThat(stats.get(Operation.PUT).calls()).isEqualTo(2);
    assertThat(stats.get(Operation.PUT).bytes()).isEqualTo(1024);
    assertThat(stats.get(Operation.GET).calls()).isEqualTo(2);
    assertThat(stats.get(Operation.GET).bytes()).isEqualTo(100);
    assertThat(stats.get(Operation.GET).failures()).containsEntry(Kind.NOT_FOUND, 1L);
    assertThat(stats.get(Operation.GET).failureCount()).isEqualTo(1);
    assertThat(stats.get(Operation.PUT).latencyNanos().getTotalCount()).isEqualTo(2);
    assertThat(stats.get(Operation.HEAD).calls()).isEqualTo(1);
    assertThat(stats.get(Operation.LIST).calls()).isEqualTo(1);
    assertThat(stats.get(Operation.DELETE).calls()).isEqualTo(1);
    assertThat(stats.get(Operation.PROBE).calls()).isZero();

    // Counters are cumulative; latencies restart with each interval.
    Map<Operation, MeteredRepository.OperationStats> next = metered.snapshot();
    assertThat(next.get(Operation.PUT).calls()).isEqualTo(2);
    assertThat(next.get(Operation.PUT).latencyNanos().getTotalCount()).isZero();
  }

  @Test
  void find_whenWrappedInOtherDecorators_returnsMeteredLayer() {
    MeteredRepository metered = new MeteredRepository(MemoryRepository.create("m"));
    Repository chain = new FaultyRepository(metered);
    assertThat(ForwardingRepository.find(chain, MeteredRepository.class)).containsSame(metered);
    assertThat(ForwardingRepository.find(chain, MemoryRepository.class)).isPresent();
    assertThat(ForwardingRepository.find(chain, LatencyRepository.class)).isEmpty();
  }
}
