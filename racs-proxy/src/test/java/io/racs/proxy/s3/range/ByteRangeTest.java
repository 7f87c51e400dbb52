package io.racs.proxy.s3.range;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves Range headers resolve against the object size as S3 resolves them: the three single-range
 * forms, clamping, ignored invalid or multiple ranges, and {@code InvalidRange} with the size.
 */
class ByteRangeTest {
  private static Optional<ByteRange> parse(String h, long size) {
    return ByteRange.parse(h, size);
  }

  @Test
  void parse_whenSingleRangeForms_resolves() {
    assertThat(parse("bytes=0-9", 100)).contains(new ByteRange(0, 9));
    assertThat(parse("bytes=90-200", 100)).contains(new ByteRange(90, 99));
    assertThat(parse("bytes=10-", 100)).contains(new ByteRange(10, 99));
    assertThat(parse("bytes=-10", 100)).contains(new ByteRange(90, 99));
    assertThat(parse("bytes=-1000", 100)).contains(new ByteRange(0, 99));
    assertThat(parse("Bytes = 5-5 ".replace(" = ", "="), 100)).contains(new ByteRange(5, 5));
    assertThat(parse("bytes=0-99999999999999999999999", 100)).contains(new ByteRange(0, 99));
    assertThat(new ByteRange(90, 99).contentRange(100)).isEqualTo("bytes 90-99/100");
    assertThat(new ByteRange(90, 99).lengthBytes()).isEqualTo(10);
  }

  @Test
  void parse_whenInvalidOrMultiple_servesWholeObject() {
    for (String h :
        new String[] {
          null,
          "",
          "items=0-1",
          "bytes=",
          "bytes=a-b",
          "bytes=5-1",
          "bytes=0-1,5-6",
          "bytes=--1",
          "bytes=1",
          "bytes=-",
          "bytes=+1-2"
        }) {
      assertThat(parse(h, 100)).as(String.valueOf(h)).isEmpty();
    }
  }

  @Test
  void parse_whenUnsatisfiable_invalidRangeWithSize() {
    for (String h :
        new String[] {"bytes=100-", "bytes=100-200", "bytes=-0", "bytes=99999999999999999999-"}) {
      assertThatThrownBy(() -> parse(h, 100))
          .as(h)
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> {
                assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_RANGE);
                assertThat(e.httpStatus()).isEqualTo(416);
                assertThat(e.details()).containsEntry("ActualObjectSize", "100");
              });
    }
    for (String h : new String[] {"bytes=0-", "bytes=-1", "bytes=0-0"}) {
      assertThatThrownBy(() -> parse(h, 0)).as(h).isInstanceOf(S3Exception.class);
    }
  }

  @Test
  void constructor_whenReversed_throwsNamingRange() {
    assertThatThrownBy(() -> new ByteRange(5, 4))
        .hasMessage("range: 5-4 (expected: 0 <= first <= last)");
  }
}
