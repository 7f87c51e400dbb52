package io.racs.proxy.s3.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Proves the error codes carry S3's code names and statuses, and that exceptions keep their details
 * immutably. (The translation of other failures is {@code StoreErrorsTest}'s.)
 */
class S3ErrorCodeTest {
  @Test
  void codes_whenListed_areUniqueWithS3Statuses() {
    Set<String> seen = new HashSet<>();
    for (S3ErrorCode c : S3ErrorCode.values()) {
      assertThat(seen.add(c.code())).as(c.code()).isTrue();
      assertThat(c.defaultMessage()).isNotBlank();
    }
    assertThat(S3ErrorCode.NO_SUCH_KEY.httpStatus()).isEqualTo(404);
    assertThat(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.httpStatus()).isEqualTo(403);
    assertThat(S3ErrorCode.INVALID_RANGE.httpStatus()).isEqualTo(416);
    assertThat(S3ErrorCode.MISSING_CONTENT_LENGTH.httpStatus()).isEqualTo(411);
    assertThat(S3ErrorCode.NOT_MODIFIED.hasBody()).isFalse();
    assertThat(S3ErrorCode.SLOW_DOWN.httpStatus()).isEqualTo(503);
    assertThat(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH.code())
        .isEqualTo("XAmzContentSHA256Mismatch");
  }

  @Test
  void exception_whenDetailsAdded_returnsNewInstances() {
    S3Exception e = S3Exception.of(S3ErrorCode.NO_SUCH_KEY);
    S3Exception withResource = e.withResource("/b/k").withDetail("Key", "k");
    assertThat(e.resource()).isNull();
    assertThat(e.details()).isEmpty();
    assertThat(withResource.resource()).isEqualTo("/b/k");
    assertThat(withResource.details()).containsEntry("Key", "k");
    assertThat(withResource.getMessage()).isEqualTo("The specified key does not exist.");
    assertThat(withResource.getStackTrace()).isEmpty();
  }
}
