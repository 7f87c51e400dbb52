package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.e2e.AcknowledgedWrites.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The model the fault suite judges reads by accepts exactly the answers a store may give: the last
 * acknowledged value, or one written concurrently, or one whose write failed or went unanswered and
 * was not surely superseded; and rejects stale values, lost acknowledged values, resurrected
 * deletes, and listings that leave out or invent keys.
 */
class AcknowledgedWritesTest {
  private static final Value A = new Value("a", 1);
  private static final Value B = new Value("b", 2);
  private static final Value C = new Value("c", 3);

  @Test
  void checkGet_whenNothingWasWritten_acceptsOnlyAbsent() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkGet("k", begin, end, Value.ABSENT)).isNull();
    assertThat(model.checkGet("k", begin, end, A)).contains("returned a/1B");
  }

  @Test
  void checkGet_afterAcknowledgedPut_acceptsOnlyItsValue() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).acknowledged();
    model.beginPut("k", B).acknowledged();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkGet("k", begin, end, B)).isNull();
    assertThat(model.checkGet("k", begin, end, A)).as("stale").isNotNull();
    assertThat(model.checkGet("k", begin, end, Value.ABSENT)).as("lost").contains("404");
  }

  @Test
  void checkGet_whenPutOverlapsTheRead_acceptsOldAndNew() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).acknowledged();
    long begin = model.now();
    AcknowledgedWrites.Write put = model.beginPut("k", B);
    long end = model.now();
    put.acknowledged();
    assertThat(model.checkGet("k", begin, end, A)).isNull();
    assertThat(model.checkGet("k", begin, end, B)).isNull();
    assertThat(model.checkGet("k", begin, end, C)).as("never written").isNotNull();
  }

  @Test
  void checkGet_whenPutBeganAfterTheReadEnded_rejectsItsValue() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).acknowledged();
    long begin = model.now();
    long end = model.now();
    model.beginPut("k", B).acknowledged();
    assertThat(model.checkGet("k", begin, end, B)).isNotNull();
  }

  @Test
  void checkGet_whenPutFailed_acceptsItUntilALaterPutIsAcknowledged() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).acknowledged();
    model.beginPut("k", B).failed();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkGet("k", begin, end, A)).isNull();
    assertThat(model.checkGet("k", begin, end, B)).isNull();
    model.beginPut("k", C).acknowledged();
    long later = model.now();
    long laterEnd = model.now();
    assertThat(model.checkGet("k", later, laterEnd, B)).as("superseded").isNotNull();
    assertThat(model.checkGet("k", later, laterEnd, C)).isNull();
  }

  @Test
  void checkGet_whenPutWentUnanswered_acceptsItEvenAfterLaterPuts() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).unknown();
    model.beginPut("k", B).acknowledged();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkGet("k", begin, end, A)).isNull();
    assertThat(model.checkGet("k", begin, end, B)).isNull();
  }

  @Test
  void checkGet_afterAcknowledgedDelete_acceptsOnlyAbsent() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("k", A).acknowledged();
    model.beginDelete("k").acknowledged();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkGet("k", begin, end, Value.ABSENT)).isNull();
    assertThat(model.checkGet("k", begin, end, A)).as("resurrected").isNotNull();
  }

  @Test
  void checkList_whenAnAcknowledgedKeyIsMissing_reportsIt() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("p/a", A).acknowledged();
    model.beginPut("p/b", B).acknowledged();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkList("p/", begin, end, List.of("p/a", "p/b"))).isEmpty();
    assertThat(model.checkList("p/", begin, end, List.of("p/a")))
        .singleElement()
        .asString()
        .contains("left out p/b");
  }

  @Test
  void checkList_whenADeletedOrUnwrittenKeyIsListed_reportsIt() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    model.beginPut("p/a", A).acknowledged();
    model.beginDelete("p/a").acknowledged();
    long begin = model.now();
    long end = model.now();
    assertThat(model.checkList("p/", begin, end, List.of())).isEmpty();
    assertThat(model.checkList("p/", begin, end, List.of("p/a", "p/x")))
        .containsExactly(
            "LIST p/ [" + begin + ", " + end + "] named deleted key p/a",
            "LIST p/ [" + begin + ", " + end + "] named p/x, never written");
  }

  @Test
  void checkList_whenAPutIsInFlight_acceptsTheKeyListedOrNot() {
    AcknowledgedWrites model = new AcknowledgedWrites();
    long begin = model.now();
    AcknowledgedWrites.Write put = model.beginPut("p/a", A);
    long end = model.now();
    assertThat(model.checkList("p/", begin, end, List.of())).isEmpty();
    assertThat(model.checkList("p/", begin, end, List.of("p/a"))).isEmpty();
    put.acknowledged();
  }
}
