package io.racs.bench.jmh;

import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.authz.Authorizer;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.route.S3Router;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The access decision of one GET (issue #40; goal: under 2 µs with a 10-statement bucket policy):
 * {@code Authorizer.identify} and {@code Access.check} of a signed GET of {@code photos/cat.jpg},
 * by a user with one identity policy, against a bucket policy of {@code statements} statements
 * (prefix Allows and Denies, a SourceIp and a SecureTransport condition), the last of which allows
 * the GET. The bucket policy comes parsed, as the decision's cache hands it on every request after
 * the first; routing and signing are not measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PolicyDecisionBenchmark {
  @Param({"1", "10"})
  public int statements;

  private Authorizer authorizer;
  private Authorizer.Request request;

  /** The policies and the request. */
  @Setup(Level.Trial)
  public void setUp() {
    StringBuilder json = new StringBuilder("{\"Version\": \"2012-10-17\", \"Statement\": [");
    for (int i = 0; i < statements - 1; i++) {
      String effect = i % 3 == 0 ? "Deny" : "Allow";
      String condition =
          i % 2 == 0
              ? "\"Condition\": {\"IpAddress\": {\"aws:SourceIp\": \"10." + i + ".0.0/16\"}}"
              : "\"Condition\": {\"Bool\": {\"aws:SecureTransport\": \"true\"}}";
      json.append(
          String.format(
              "{\"Sid\": \"s%d\", \"Effect\": \"%s\", \"Principal\": {\"AWS\": [\"u%d\"]},"
                  + " \"Action\": [\"s3:GetObject\", \"s3:PutObject\"],"
                  + " \"Resource\": \"arn:aws:s3:::bench/dir%d/*\", %s},",
              i, effect, i, i, condition));
    }
    json.append(
        "{\"Effect\": \"Allow\", \"Principal\": {\"AWS\": \"reader\"}, \"Action\": \"s3:Get*\","
            + " \"Resource\": \"arn:aws:s3:::bench/photos/*\"}]}");
    Policy bucketPolicy = PolicyParser.bucketPolicy(json.toString(), "bench");
    Principal reader =
        new Principal(
            "reader",
            false,
            List.of(
                PolicyParser.identityPolicy(
                    "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"s3:ListBucket\","
                        + " \"Resource\": \"arn:aws:s3:::bench\"}]}")));
    authorizer =
        new Authorizer(
            key -> Optional.of(reader), bucket -> Optional.of(bucketPolicy), Clock.systemUTC());
    RequestHead head =
        RequestHead.of(
            "GET", "/bench/photos/cat.jpg", Headers.of("user-agent", "aws-cli/2.0 bench"));
    request =
        new Authorizer.Request(
            head,
            S3Router.pathStyle().route(head),
            new Authentication(
                "reader-key",
                AuthType.V4_HEADER,
                java.time.Instant.now(),
                ContentSha256.UNSIGNED,
                Optional.empty()),
            false,
            "192.0.2.7");
  }

  /** Identifies and judges one GET. */
  @Benchmark
  public Access decideGet() {
    return authorizer.identify(request).check();
  }
}
