package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Runs the codec contract on the portable scalar path, and proves the engine (plan cache, pooled
 * working memory) allocates nothing per call once warm.
 */
class ScalarReedSolomonTest extends ErasureCodecContract {
  @Override
  Implementation implementation() {
    return Implementation.SCALAR;
  }

  @Test
  void steadyState_encodeAndReconstruct_allocateNothing() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    ErasureCodec codec = codec(4, 2);
    byte[][] shards = Xorshift.shards(4, 2, 4096, 3);
    boolean[] present = {true, false, true, true, false, true};
    for (int i = 0; i < 200; i++) {
      codec.encodeParity(shards, 0, 4096);
      codec.reconstruct(shards, present, 0, 4096);
      codec.verifyParity(shards, 0, 4096);
    }
    long id = Thread.currentThread().threadId();
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < 1000; i++) {
      codec.encodeParity(shards, 0, 4096);
      codec.reconstruct(shards, present, 0, 4096);
      codec.verifyParity(shards, 0, 4096);
    }
    long allocated = threads.getThreadAllocatedBytes(id) - before;
    // 3000 calls: anything per call would be kilobytes; allow a little for the measurement itself.
    assertThat(allocated).isLessThan(1024);
  }
}
