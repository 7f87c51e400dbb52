package io.racs.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.run.IterationResult;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves on hand-made agent parts that the merged iteration measures throughput over the whole
 * slices of the window all agents share, and that it is invalid, with the reason, when a part is,
 * when the agents share no window, when the shared window is shorter than a request, or when it
 * holds no whole slice; and that errors and expected misses cross the wire and merge apart.
 */
class RemoteEngineMergeTest {
  private static final long MS = 1_000_000L;
  private static final List<String> NAMES = List.of("h1:7070", "h2:7070");

  /** A valid part with its window in milliseconds since the common start instant. */
  private static IterationResult part(
      long windowStartMillis, long windowEndMillis, long opsPerSlice, long requestMillis) {
    IterationResult p = new IterationResult();
    p.startEpochNanos = 1_000_000_000_000L;
    p.windowStartNanos = windowStartMillis * MS;
    p.windowEndNanos = windowEndMillis * MS;
    p.sliceOps = new long[50];
    Arrays.fill(p.sliceOps, opsPerSlice);
    p.sliceBytes = new long[50];
    Arrays.fill(p.sliceBytes, opsPerSlice * 1000);
    p.ops = opsPerSlice * 20;
    p.requests.recordValueWithCount(requestMillis * MS, 20);
    return p;
  }

  @Test
  void wire_whenAPartCarriesErrorsAndExpectedMisses_keepsThemApartAcrossTheWire() {
    IterationResult p = part(100, 1100, 2, 10);
    p.errors.put("NOT_FOUND", 2L);
    p.expectedMisses.put("get", 7L);
    p.expectedMisses.put("head", 1L);
    IterationResult back = Wire.result(Wire.result(p));
    assertThat(back.errors).containsExactlyEntriesOf(p.errors);
    assertThat(back.expectedMisses).containsExactlyEntriesOf(p.expectedMisses);
    IterationResult merged = RemoteEngine.merge(List.of(back, back), NAMES, "--duration");
    assertThat(merged.expectedMissCount()).isEqualTo(16);
    assertThat(merged.errorCount()).isEqualTo(4);
  }

  @Test
  void merge_whenPartsCarryCpuPressure_crossesTheWireAndKeepsTheHighest() {
    IterationResult calm = part(100, 1100, 2, 10);
    calm.cpuUtilisation = 0.4;
    calm.cpuPressure = 0.25;
    IterationResult busy = part(100, 1100, 2, 10);
    busy.cpuUtilisation = 0.3;
    busy.cpuPressure = 0.75;
    IterationResult unknown = part(100, 1100, 2, 10);

    IterationResult merged =
        RemoteEngine.merge(
            List.of(Wire.result(Wire.result(calm)), Wire.result(Wire.result(busy))),
            NAMES,
            "--duration");

    assertThat(merged.cpuPressure).isEqualTo(0.75);
    assertThat(merged.cpuUtilisation).isEqualTo(0.4);
    assertThat(Wire.result(Wire.result(unknown)).cpuPressure).isNaN();
  }

  @Test
  void merge_whenWindowsOverlap_countsTheWholeSharedSlices() {
    // Shared window [120 ms, 1050 ms]; whole slices [150 ms, 1050 ms): 18 slices of 2 + 3 ops.
    IterationResult merged =
        RemoteEngine.merge(
            List.of(part(100, 1100, 2, 10), part(120, 1050, 3, 10)), NAMES, "--duration");
    assertThat(merged.invalidReason).isNull();
    assertThat(merged.windowStartNanos).isEqualTo(150 * MS);
    assertThat(merged.windowEndNanos).isEqualTo(1050 * MS);
    assertThat(merged.sharedWindowOps).isEqualTo(90);
    assertThat(merged.sharedWindowBytes).isEqualTo(90_000);
    assertThat(merged.opsPerSecond()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(merged.megabytesPerSecond())
        .isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(merged.ops).isEqualTo(100);
  }

  @Test
  void merge_whenAPartIsInvalid_isInvalidAndNamesTheAgent() {
    IterationResult bad = part(0, 0, 0, 6100);
    bad.invalidReason = "window 80 µs shorter than a request (p50 6.1 s): raise --duration";
    IterationResult merged =
        RemoteEngine.merge(List.of(part(100, 1100, 2, 10), bad), NAMES, "--duration");
    assertThat(merged.invalidReason)
        .isEqualTo(
            "agent h2:7070: window 80 µs shorter than a request (p50 6.1 s): raise --duration");
    assertThat(merged.opsPerSecond()).isNaN();
  }

  @Test
  void merge_whenWindowsDoNotOverlap_isInvalid() {
    IterationResult merged =
        RemoteEngine.merge(
            List.of(part(100, 200, 2, 10), part(300, 400, 2, 10)), NAMES, "--duration");
    assertThat(merged.invalidReason)
        .isEqualTo(
            "no window: the agents' windows do not overlap (agents started late or stopped"
                + " early): raise --duration");
  }

  @Test
  void merge_whenSharedWindowIsShorterThanARequest_isInvalid() {
    // Shared [900 ms, 1000 ms]: 100 ms against requests of 500 ms.
    IterationResult merged =
        RemoteEngine.merge(
            List.of(part(0, 1000, 1, 500), part(900, 2000, 1, 500)), NAMES, "--count");
    assertThat(merged.invalidReason)
        .isEqualTo("window 0.1 s shorter than a request (p50 0.5 s): raise --count");
  }

  @Test
  void merge_whenSharedWindowHoldsNoWholeSlice_isInvalid() {
    // Shared [110 ms, 170 ms]: 60 ms, longer than a 10 ms request, but no whole 50 ms slice.
    IterationResult merged =
        RemoteEngine.merge(
            List.of(part(110, 500, 1, 10), part(0, 170, 1, 10)), NAMES, "--duration");
    assertThat(merged.invalidReason)
        .isEqualTo(
            "the agents' shared window of 60.0 ms holds no whole 50 ms slice: raise --duration");
  }
}
