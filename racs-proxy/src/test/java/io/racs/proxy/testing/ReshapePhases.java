package io.racs.proxy.testing;

import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.array.IndexQuorum.Phase;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The index quorums of issue #38's two reshapes of the repository set, phase by phase: 4x2 over
 * slots 0..5 to 6x3 over 0..8, then to 4x2 over 6..11 (index write quorums 4 and 6, {@code max(k, m
 * + 1)}).
 */
public final class ReshapePhases {
  private ReshapePhases() {}

  /** Slot ids {@code from..to-1}. */
  public static List<Integer> ids(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  /**
   * Each reshape's quorums in order: {@code OLD}, {@code JOINT}, {@code SWITCHED}, {@code DONE}.
   */
  public static List<List<IndexQuorum>> issue38() {
    return List.of(phases(ids(0, 6), 4, ids(0, 9), 6), phases(ids(0, 9), 6, ids(6, 12), 4));
  }

  private static List<IndexQuorum> phases(
      List<Integer> before, int wqBefore, List<Integer> after, int wqAfter) {
    return List.of(
        IndexQuorum.of(before, wqBefore),
        IndexQuorum.joint(Phase.JOINT, before, wqBefore, after, wqAfter),
        IndexQuorum.joint(Phase.SWITCHED, before, wqBefore, after, wqAfter),
        IndexQuorum.joint(Phase.DONE, before, wqBefore, after, wqAfter));
  }
}
