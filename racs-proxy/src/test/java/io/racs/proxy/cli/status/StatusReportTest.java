package io.racs.proxy.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Proves the summary of a proxy that is waiting for its array at start-up: not ready, with the
 * reason the readiness report gives, and every repository's state; and that latency comes from the
 * repository histogram's buckets.
 */
class StatusReportTest {
  @Test
  void waitingProxy_isNotReady_andSaysWhy() throws Exception {
    String ready =
        """
        {"repositories":[{"slot":0,"name":"a","state":"up"},
          {"slot":1,"name":"b","state":"unavailable","reason":"connection refused"}],
         "healthy":1,"writeQuorum":2,"ready":false,"lifecycle":"on",
         "array":{"open":false,"attempts":4,"waitingSeconds":12,
                  "reason":"not open yet: only 1 of 2 repositories can serve array"}}
        """;
    String metrics =
        """
        # TYPE racs_repository_request_duration_seconds histogram
        racs_repository_request_duration_seconds_bucket{slot="0",repository="a",operation="get",le="0.001"} 90
        racs_repository_request_duration_seconds_bucket{slot="0",repository="a",operation="get",le="0.01"} 99
        racs_repository_request_duration_seconds_bucket{slot="0",repository="a",operation="get",le="+Inf"} 100
        racs_repository_requests_total{slot="0",repository="a",operation="get"} 100
        """;

    StatusReport report = StatusReport.of(ready, metrics);

    assertThat(report.verdict()).isEqualTo(StatusReport.Verdict.NOT_READY);
    assertThat(report.lines().getFirst())
        .isEqualTo(
            "array: not ready, writes refused (1 of 2 repositories up; 1 take writes, writes need"
                + " 2)");
    assertThat(report.lines())
        .anySatisfy(l -> assertThat(l).matches(" +0  a +up +100 +0 +1\\.00 +10\\.0"))
        .contains(
            "  the array is not open yet (4 attempts in 12 s): not open yet: only 1 of 2"
                + " repositories can serve array",
            "  slot 1 (b) is unavailable: connection refused");
  }
}
