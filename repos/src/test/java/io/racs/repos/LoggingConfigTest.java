package io.racs.repos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Guards the size of this module's test output. Without {@code logback-test.xml} logback logs
 * everything at DEBUG, and the S3 SDK's DEBUG output of one integration test filled 5 GB of reports
 * a run, enough to run the disk out of space for the next test.
 */
class LoggingConfigTest {
  @Test
  void theSdkAndTheHttpClientDoNotLogAtDebug() {
    assertThat(LoggerFactory.getLogger("software.amazon.awssdk.request").isDebugEnabled())
        .isFalse();
    assertThat(LoggerFactory.getLogger("org.apache.hc.client5.http.wire").isDebugEnabled())
        .isFalse();
    assertThat(LoggerFactory.getLogger("io.racs.repos").isInfoEnabled()).isTrue();
  }
}
